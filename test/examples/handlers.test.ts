import * as fs from 'fs';
import * as path from 'path';
import * as collatz from '../../examples/collatz/handlers';
import * as text from '../../examples/text-pipeline/handlers';
import * as wc from '../../examples/wordcount/handlers';

const input = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', name, 'input.json'), 'utf8'));

describe('text pipeline handlers', () => {
  test('the sample input runs through normalize -> 3 analyses -> report', async () => {
    const doc = await text.normalize(input('text-pipeline') as text.Document);
    expect(doc.sentences).toHaveLength(5);
    const [stats, mood, keys] = await Promise.all([text.wordStats(doc), text.sentiment(doc), text.keywords(doc)]);
    expect(stats.words).toBe(doc.words.length);
    expect(stats.longestWord).toBe('documentation');
    // "not easy" is negated; fast reliable simple happy great clean robust excellent vs slow expensive bad bug crash.
    expect(mood.negative).toEqual(['slow', 'expensive', 'bad', 'bug', 'crash', 'easy']);
    expect(mood.label).toBe('positive');
    const result = await text.report([stats, mood, keys]);
    expect(result.summary).toMatch(/^\d+ words \(\d+ unique\) in 5 sentences; sentiment positive \(\+\d+\); keywords: /);
  });

  test('rejects an empty text', async () => {
    await expect(text.normalize({ text: '  ' })).rejects.toThrow('input.text must be a non-empty string');
  });
});

describe('word count handlers', () => {
  test('MapReduce over the sample equals a direct count', async () => {
    const sample = input('wordcount') as wc.WordCountInput;
    const { chunks } = await wc.split(sample);
    expect(chunks.length).toBeGreaterThan(1);
    const mapped = await Promise.all(chunks.map((c) => wc.mapChunk(c)));
    const { partitions } = await wc.shuffle(mapped);
    expect(partitions).toHaveLength(3);
    const reduced = await Promise.all(partitions.map((p) => wc.reducePartition(p)));
    const result = await wc.merge(reduced);

    const direct: Record<string, number> = {};
    for (const w of sample.text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) direct[w] = (direct[w] ?? 0) + 1;
    expect(result.counts).toEqual(Object.fromEntries(Object.entries(direct).sort(([a], [b]) => a.localeCompare(b))));
    expect(result.top.slice(0, 3)).toEqual([
      { word: 'the', count: 11 },
      { word: 'it', count: 10 },
      { word: 'of', count: 10 },
    ]);
    expect(result.totalWords).toBe(Object.values(direct).reduce((a, b) => a + b, 0));
  });

  test('an empty text gives no chunks', async () => {
    expect(await wc.split({ text: '' })).toEqual({ chunks: [] });
    expect(await wc.merge([])).toEqual({ totalWords: 0, distinctWords: 0, top: [], counts: {} });
  });
});

describe('collatz handlers', () => {
  test('6 reaches 1 in 8 steps', async () => {
    let state: collatz.CollatzState = input('collatz') as collatz.CollatzState;
    while (true) {
      state = await collatz.step(state);
      if (state.n <= 1) break;
    }
    expect(await collatz.finish(state as Required<collatz.CollatzState>)).toEqual({ start: 6, steps: 8, peak: 16 });
  });
});
