import * as path from 'path';
import { Definition, type EffectsTable, Task } from '../../lib/definition';
import type * as h from './handlers';

const entry = path.join(__dirname, 'handlers.ts');

/** price -> place (charge, reserve and record exactly once) -> confirm. `ledger` is the DynamoDB table of charges and reservations. */
export function orders(ledger: EffectsTable): Definition<h.Order, h.Confirmation> {
  const price = new Task<h.Order, h.PricedOrder>('Price', { entry, handler: 'price' });
  const place = new Task<h.PricedOrder, h.PlacedOrder>('PlaceOrder', {
    entry,
    handler: 'placeOrder',
    environment: { LEDGER_TABLE: ledger.tableName },
    effects: { tables: [ledger] },
  });
  const confirm = new Task<h.PlacedOrder, h.Confirmation>('Confirm', { entry, handler: 'confirm' });
  return Definition.from(price.next(place).next(confirm));
}
