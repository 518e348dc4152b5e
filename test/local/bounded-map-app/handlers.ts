/** Handlers of the bounded-Map app: each item's work takes long enough for items launched together to overlap. */
export async function work(n: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return n * 10;
}

export const check = (n: number): number => n;

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
