// A user's CDK app in TypeScript, compiled with tsc --strict: a chain through a Map, a Parallel with its
// fan-in and a Choice, as the README writes one.
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Choice, Condition, Definition, Map, Parallel, Task, UnumWorkflow } from 'unum-cdk';
import type * as h from './handlers';

/** The handlers' source: the construct bundles it (the app runs from dist/, the source is beside it). */
const entry = path.join(__dirname, '..', 'handlers.ts');

export function shipping() {
  const validate = new Task<h.Order, h.Order>('Validate', { entry, handler: 'validate' });
  const lines = new Map<h.Order, number[]>('Lines', { itemsPath: '$.lines' }).itemProcessor(new Task<h.Line, number>('LineTotal', { entry, handler: 'lineTotal' }));
  const summarize = new Parallel<number[], [number, number]>('Summarize').branch(
    new Task<number[], number>('Sum', { entry, handler: 'sum' }),
    new Task<number[], number>('Count', { entry, handler: 'count' }),
  );
  const totals = new Task<[number, number], h.Totals>('Totals', { entry, handler: 'totals' });
  const ship = new Choice<h.Totals>('Ship')
    .when(Condition.numberGreaterThan('$.totalCents', 10_000), new Task<h.Totals, h.Shipped>('Express', { entry, handler: 'express' }))
    .otherwise(new Task<h.Totals, h.Shipped>('Standard', { entry, handler: 'standard' }));
  return Definition.from(validate.next(lines).next(summarize).next(totals).next(ship));
}

if (require.main === module) {
  const app = new App();
  const stack = new Stack(app, 'TsConsumerApp');
  new UnumWorkflow(stack, 'Shipping', { definition: shipping() });
  app.synth();
}
