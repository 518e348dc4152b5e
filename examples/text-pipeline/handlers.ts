/**
 * Text pipeline: normalize a document, analyse it three ways in parallel, and
 * write one report from the three analyses (chain + parallel + fan-in).
 * Pure functions of their input: no dependencies, no I/O.
 */

export interface Document {
  readonly title?: string;
  readonly text: string;
}

export interface Normalized {
  readonly title: string;
  readonly text: string;
  readonly sentences: string[];
  readonly words: string[];
}

export interface WordStats {
  readonly words: number;
  readonly uniqueWords: number;
  readonly sentences: number;
  readonly averageWordLength: number;
  readonly longestWord: string;
}

export interface Sentiment {
  readonly score: number;
  readonly label: 'positive' | 'negative' | 'neutral';
  readonly positive: string[];
  readonly negative: string[];
}

export interface Keywords {
  readonly keywords: Array<{ word: string; count: number }>;
}

export interface Report {
  readonly summary: string;
  readonly stats: WordStats;
  readonly sentiment: Sentiment;
  readonly keywords: string[];
}

export async function normalize(input: Document): Promise<Normalized> {
  if (typeof input?.text !== 'string' || input.text.trim() === '') {
    throw new TypeError('input.text must be a non-empty string');
  }
  const text = input.text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const sentences = text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return { title: input.title ?? sentences[0]?.slice(0, 60) ?? '', text, sentences, words: words.map((w) => w.replace(/^'+|'+$/g, '')) };
}

export async function wordStats(input: Normalized): Promise<WordStats> {
  const { words } = input;
  const longestWord = words.reduce((best, w) => (w.length > best.length ? w : best), '');
  const letters = words.reduce((n, w) => n + w.length, 0);
  return {
    words: words.length,
    uniqueWords: new Set(words).size,
    sentences: input.sentences.length,
    averageWordLength: words.length === 0 ? 0 : Math.round((letters / words.length) * 100) / 100,
    longestWord,
  };
}

/** A small sentiment lexicon (AFINN-style weights). */
const LEXICON: Readonly<Record<string, number>> = {
  good: 2, great: 3, excellent: 3, happy: 3, love: 3, like: 2, fast: 2, reliable: 2, simple: 1, clean: 1,
  easy: 1, wonderful: 4, best: 3, cheap: 1, robust: 2, elegant: 2, win: 2, success: 2, helpful: 2,
  bad: -3, poor: -2, slow: -2, hate: -3, terrible: -3, awful: -3, broken: -2, fail: -2, failure: -2,
  expensive: -2, complex: -1, lost: -2, bug: -2, bugs: -2, crash: -3, worst: -3, sad: -2, wrong: -2,
};
const NEGATIONS = new Set(['not', 'no', 'never', "isn't", "don't", "doesn't", "wasn't", 'without']);

export async function sentiment(input: Normalized): Promise<Sentiment> {
  let score = 0;
  const positive: string[] = [];
  const negative: string[] = [];
  input.words.forEach((word, i) => {
    const weight = LEXICON[word];
    if (weight === undefined) return;
    // "not good" counts as negative.
    const signed = NEGATIONS.has(input.words[i - 1] ?? '') ? -weight : weight;
    score += signed;
    (signed > 0 ? positive : negative).push(word);
  });
  const label = score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
  return { score, label, positive, negative };
}

const STOPWORDS = new Set(
  ('a an and are as at be but by for from has have he her his i in is it its of on or our she that the their them ' +
    'they this to was we were what when which who will with you your not no so than then there these those into ' +
    'can do does did just also more most very all any each our out up over only own same too')
    .split(' '),
);

export async function keywords(input: Normalized): Promise<Keywords> {
  const counts = new Map<string, number>();
  for (const word of input.words) {
    if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const ranked = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([word, count]) => ({ word, count }));
  return { keywords: ranked };
}

/** Joins the parallel branches; they arrive in branch order: stats, sentiment, keywords. */
export async function report(input: [WordStats, Sentiment, Keywords]): Promise<Report> {
  const [stats, mood, keys] = input;
  const words = keys.keywords.map((k) => k.word);
  const summary =
    `${stats.words} words (${stats.uniqueWords} unique) in ${stats.sentences} sentences; ` +
    `sentiment ${mood.label} (${mood.score >= 0 ? '+' : ''}${mood.score}); ` +
    `keywords: ${words.join(', ') || 'none'}`;
  return { summary, stats, sentiment: mood, keywords: words };
}
