/**
 * Handlers of the shape fixtures (relay, sort-parcels, video-frames,
 * order-check, word-lengths in test/asl/fixtures), one export per function a
 * document names. Each computes something checkable, so that the end-to-end
 * tests can state every run's result from the ASL semantics.
 */

// ---------------------------------------------------------------- relay.asl.json

/** Every leg: one more hop, the rest of the parcel as it came. */
export const hopArn = (parcel: { hops: number }): { hops: number } => ({ ...parcel, hops: parcel.hops + 1 });

// ---------------------------------------------------------------- sort-parcels.asl.json

export const smallBoxArn = (): string => 'box S';
export const largeBoxArn = (): string => 'box L';
export const labelArn = (box: string): string => `${box}, labelled`;

// ---------------------------------------------------------------- video-frames.asl.json

export const decodeArn = (frame: { id: number }): { id: number; pixels: string } => ({ id: frame.id, pixels: `p${frame.id}` });
export const tintArn = (frame: { id: number; pixels: string }): { id: number; pixels: string; tint: string } => ({ ...frame, tint: `t${frame.id}` });

/** Each frame's pixels with the tint of the frame before it (none for the first). */
export function pairArn(frames: { pixels: string; tint: string }[]): { pixels: string; before: string | null }[] {
  return frames.map((f, i) => ({ pixels: f.pixels, before: i === 0 ? null : frames[i - 1].tint }));
}

export const blendArn = (pair: { pixels: string; before: string | null }): string => `${pair.pixels}+${pair.before ?? 'none'}`;
export const stitchArn = (parts: string[]): string => parts.join(',');

// ---------------------------------------------------------------- order-check.asl.json

export const checkStock = (order: { items: string[] }): { inStock: number } => ({ inStock: order.items.length });
export const priceItems = (order: { items: string[] }): { total: number } => ({ total: order.items.length * 5 });
export const applyDiscount = (price: { total: number }): { total: number } => ({ total: price.total - 1 });

/** Receives the Parallel's branch outputs in branch order: [CheckStock's, ApplyDiscount's]. */
export function invoice([stock, price]: [{ inStock: number }, { total: number }]): { lines: number; due: number } {
  return { lines: stock.inStock, due: price.total };
}

export const notify = (bill: { lines: number; due: number }): string => `${bill.lines} lines, ${bill.due} due`;

// ---------------------------------------------------------------- word-lengths.asl.json

export const Measure = (word: string): number => word.length;

/** How many words have each length, shortest first: one Tally input per length. */
export function Bucket(lengths: number[]): { length: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const n of lengths) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => a - b).map((length) => ({ length, count: counts.get(length) as number }));
}

export const Tally = (bucket: { length: number; count: number }): string => `${bucket.count}x${bucket.length}`;
export const Report = (tallies: string[]): string => tallies.join(' ');
