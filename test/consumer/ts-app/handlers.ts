// The workflow's handlers: typed functions of their input, bundled by the construct with esbuild.

export interface Line {
  readonly sku: string;
  readonly qty: number;
  readonly cents: number;
}

export interface Order {
  readonly id: string;
  readonly lines: readonly Line[];
}

export interface Totals {
  readonly totalCents: number;
  readonly units: number;
}

export interface Shipped extends Totals {
  readonly shipping: 'express' | 'standard';
}

export const validate = async (order: Order): Promise<Order> => {
  if (order.lines.length === 0) throw new Error(`order ${order.id} has no lines`);
  return order;
};

export const lineTotal = async (line: Line): Promise<number> => line.qty * line.cents;

export const sum = async (cents: number[]): Promise<number> => cents.reduce((a, b) => a + b, 0);

export const count = async (cents: number[]): Promise<number> => cents.length;

export const totals = async ([totalCents, units]: [number, number]): Promise<Totals> => ({ totalCents, units });

export const express = async (t: Totals): Promise<Shipped> => ({ ...t, shipping: 'express' });

export const standard = async (t: Totals): Promise<Shipped> => ({ ...t, shipping: 'standard' });
