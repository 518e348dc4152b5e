/**
 * Small handler implementations for the unum-appstore ASL corpus, one export
 * per function the corpus names (bare names like `F1`, `${...}` placeholder
 * variables like `f1Arn`). They compute something checkable, so that the
 * end-to-end tests can state each run's result from the ASL semantics.
 */

// ---------------------------------------------------------------- hello-world, hello-bye

export const Hello = (): string => 'Hello';
export const helloArn = Hello;
export const byeArn = (): string => 'Bye';
export const World = (greeting: string): string => `${greeting} World`;
export const worldArn = World;

// ---------------------------------------------------------------- iot-pipeline

export function Aggregator(input: { readings: number[] }): { average: number } {
  return { average: input.readings.reduce((a, b) => a + b, 0) / input.readings.length };
}
export const aggregatorArn = Aggregator;

export function HvacController(input: { average: number }): { average: number; action: string } {
  const action = input.average > 25 ? 'cool' : input.average < 18 ? 'heat' : 'idle';
  return { average: input.average, action };
}
export const hvacControllerArn = HvacController;
export const Hvac = HvacController;

// ---------------------------------------------------------------- map, parallel-pipeline

export const F1 = (n: number): number => n * n;
export const f1Arn = F1;
export const F2 = (n: number): number => n + 1;
export const f2Arn = F2;
export const F3 = (n: number): number => n * 10;
export const f3Arn = F3;
export const Summary = (values: number[]): number => values.reduce((a, b) => a + b, 0);
export const summaryArn = Summary;

// ---------------------------------------------------------------- text-processing

export const UserMention = (input: { text: string }): { mentions: string[] } => ({ mentions: [...input.text.matchAll(/@(\w+)/g)].map((m) => m[1]) });
export const FindUrl = (input: { text: string }): { urls: string[] } => ({ urls: input.text.match(/https?:\/\/\S+/g) ?? [] });
export const ShortenUrl = (input: { urls: string[] }): { short: string[] } => ({ short: input.urls.map((_u, i) => `sh.rt/${i}`) });

/** Receives the Parallel's branch outputs in branch order: [UserMention's, ShortenUrl's]. */
export function CreatePost([mentions, links]: [{ mentions: string[] }, { short: string[] }]): { mentions: string[]; links: string[] } {
  return { mentions: mentions.mentions, links: links.short };
}

export const Publish = (post: { mentions: string[]; links: string[] }): string => [...post.mentions.map((m) => `@${m}`), ...post.links].join(' ');

// ---------------------------------------------------------------- image-process

export const Thumbnail = (input: { image: string }): { thumbnail: string } => ({ thumbnail: `thumb-${input.image}` });
export const FaceDetection = (input: { people: string[] }): { faces: number } => ({ faces: input.people.length });
/** image-process's Publish (its Resource is also "Publish": mapped by state name in that workflow). */
export const publishImage = ([thumb, faces]: [{ thumbnail: string }, { faces: number }]): { thumbnail: string; faces: number } => ({ ...thumb, ...faces });

// ---------------------------------------------------------------- wordcount

export function Mapper(line: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const word of line.split(/\s+/).filter(Boolean)) counts[word] = (counts[word] ?? 0) + 1;
  return counts;
}

/** Groups the mappers' counts by word, sorted: one reducer input per word. */
export function Partition(counts: Record<string, number>[]): { word: string; counts: number[] }[] {
  const byWord = new Map<string, number[]>();
  for (const c of counts) for (const [word, n] of Object.entries(c)) byWord.set(word, [...(byWord.get(word) ?? []), n]);
  return [...byWord.keys()].sort().map((word) => ({ word, counts: byWord.get(word) as number[] }));
}

export const Reducer = (input: { word: string; counts: number[] }): { word: string; total: number } => ({ word: input.word, total: input.counts.reduce((a, b) => a + b, 0) });
/** wordcount's Summary (its Resource is also "Summary": mapped by state name in that workflow). */
export const wordcountSummary = (totals: { word: string; total: number }[]): Record<string, number> => Object.fromEntries(totals.map((t) => [t.word, t.total]));

// ---------------------------------------------------------------- chain, pass

export const passArn = (input: { count: number }): { count: number } => ({ count: input.count + 1 });
export const firstArn = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, first: true });
export const secondArn = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, second: true });

// ---------------------------------------------------------------- excamera

export const vpxencArn = (chunk: { id: number }): { id: number; encoded: string } => ({ id: chunk.id, encoded: `v${chunk.id}` });
export const xcdecArn = (frame: { id: number; encoded: string }): { id: number; encoded: string; state: string } => ({ ...frame, state: `s${frame.id}` });

/** Pairs each encoded chunk with the decoder state of the chunk before it. */
export function groupArn(frames: { encoded: string; state: string }[]): { encoded: string; prev: string | null }[] {
  return frames.map((f, i) => ({ encoded: f.encoded, prev: i === 0 ? null : frames[i - 1].state }));
}

export const reencodeArn = (pair: { encoded: string; prev: string | null }): string => `${pair.encoded}<${pair.prev ?? 'key'}`;
export const rebaseArn = (frames: string[]): string => frames.join('|');
