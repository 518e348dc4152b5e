// payments.ts: stands in for your payment provider's SDK. A real provider takes the idempotency
// key too, so that a repeated call with the same key charges once.
export interface Charge {
  readonly id: string;
}

export const payments = {
  async charge(card: string, amountCents: number, options: { idempotencyKey: string }): Promise<Charge> {
    return { id: `ch-${options.idempotencyKey}-${card.slice(-4)}-${amountCents}` };
  },
};
