/**
 * Word count as MapReduce: split a text into chunks, count words per chunk in
 * parallel (map), shuffle the partial counts into partitions (fan-in), sum
 * each partition in parallel (map), and merge the totals (fan-in).
 * Pure functions of their input: no dependencies, no I/O.
 */

export interface WordCountInput {
  readonly text: string;
  /** Words per chunk. @default 50 */
  readonly chunkSize?: number;
  /** Number of reduce partitions. @default 3 */
  readonly partitions?: number;
}

export interface Chunk {
  readonly index: number;
  readonly text: string;
  readonly partitions: number;
}

export interface Split {
  readonly chunks: Chunk[];
}

/** Counts of one chunk, already partitioned by word hash: `partitions[p]` holds the words of partition p. */
export interface MapOutput {
  readonly partitions: Array<Record<string, number>>;
}

export interface Partition {
  readonly partition: number;
  /** Partial counts of this partition from every mapper. */
  readonly parts: Array<Record<string, number>>;
}

export interface Shuffled {
  readonly partitions: Partition[];
}

export interface ReduceOutput {
  readonly partition: number;
  readonly counts: Record<string, number>;
}

export interface WordCount {
  readonly totalWords: number;
  readonly distinctWords: number;
  readonly top: Array<{ word: string; count: number }>;
  readonly counts: Record<string, number>;
}

export async function split(input: WordCountInput): Promise<Split> {
  if (typeof input?.text !== 'string') throw new TypeError('input.text must be a string');
  const chunkSize = input.chunkSize ?? 50;
  const partitions = input.partitions ?? 3;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError('chunkSize must be a positive integer');
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError('partitions must be a positive integer');
  const words = input.text.split(/\s+/).filter((w) => w.length > 0);
  const chunks: Chunk[] = [];
  for (let i = 0; i * chunkSize < words.length; i++) {
    chunks.push({ index: i, text: words.slice(i * chunkSize, (i + 1) * chunkSize).join(' '), partitions });
  }
  return { chunks };
}

export async function mapChunk(chunk: Chunk): Promise<MapOutput> {
  const partitions: Array<Record<string, number>> = Array.from({ length: chunk.partitions }, () => ({}));
  for (const raw of chunk.text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
    const word = raw.replace(/^'+|'+$/g, '');
    if (word === '') continue;
    const bucket = partitions[partitionOf(word, chunk.partitions)];
    bucket[word] = (bucket[word] ?? 0) + 1;
  }
  return { partitions };
}

/** Fan-in of the map: mapper outputs arrive in chunk order. */
export async function shuffle(outputs: MapOutput[]): Promise<Shuffled> {
  const count = outputs[0]?.partitions.length ?? 0;
  const partitions: Partition[] = [];
  for (let p = 0; p < count; p++) {
    partitions.push({ partition: p, parts: outputs.map((o) => o.partitions[p]).filter((part) => Object.keys(part).length > 0) });
  }
  return { partitions };
}

export async function reducePartition(input: Partition): Promise<ReduceOutput> {
  const counts: Record<string, number> = {};
  for (const part of input.parts) {
    for (const [word, n] of Object.entries(part)) counts[word] = (counts[word] ?? 0) + n;
  }
  return { partition: input.partition, counts: sortedRecord(counts) };
}

/** Fan-in of the reducers: partitions are disjoint, so merging is a union. */
export async function merge(outputs: ReduceOutput[]): Promise<WordCount> {
  const counts: Record<string, number> = {};
  for (const out of outputs) Object.assign(counts, out.counts);
  const entries = Object.entries(counts);
  const top = entries
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([word, count]) => ({ word, count }));
  return {
    totalWords: entries.reduce((n, [, c]) => n + c, 0),
    distinctWords: entries.length,
    top,
    counts: sortedRecord(counts),
  };
}

/** FNV-1a: a stable hash, so a word always lands in the same partition. */
function partitionOf(word: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

function sortedRecord(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
