/**
 * The workflows of the ASL end-to-end tests: every corpus file plus the
 * documents of test/asl/fixtures, imported with `fromAsl`, each Task mapped
 * to a small handler in test/asl/handlers.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Definition } from '../../../lib/definition';
import { fromAsl, type AslTaskProps, type FromAslOptions } from '../../../lib/asl';

export const CORPUS = path.join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'unum-appstore');
const CORPUS_HANDLERS = path.join(__dirname, '..', 'handlers', 'corpus.ts');
const FEATURES_HANDLERS = path.join(__dirname, '..', 'handlers', 'features.ts');
const FIXTURES = path.join(__dirname, '..', 'fixtures');

const corpusTask = (handler: string): AslTaskProps => ({ entry: CORPUS_HANDLERS, handler });

/** Most Tasks run the export named like their function; a few states need their own (keyed by state name). */
const BY_STATE: Record<string, FromAslOptions['tasks']> = {
  // Both "Publish" and "Summary" are also names of other apps' functions, with other inputs.
  'image-process.asl.json': { Publish: corpusTask('publishImage') },
  'wordcount.asl.json': { Summary: corpusTask('wordcountSummary') },
  'step-functions-wordcount.asl.json': { Summary: corpusTask('wordcountSummary') },
  // Real Lambda ARNs: map each state by its name.
  'step-functions-text-processing-arn.asl.json': Object.fromEntries(['UserMention', 'FindUrl', 'ShortenUrl', 'CreatePost', 'Publish'].map((s) => [s, corpusTask(s)])),
};

/** `chain-Chain10.embedded.asl.json` -> `chain-Chain10-embedded`. */
export const workflowNameOf = (file: string): string => path.basename(file).replace(/(\.asl)?\.json$/, '').replace(/[^A-Za-z0-9_-]+/g, '-');

export function corpusFiles(): string[] {
  return fs.readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort();
}

/** The fixtures beyond the corpus (their handlers are in handlers/features.ts). */
export function fixtureFiles(): string[] {
  return fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort();
}

/** Workflow name -> definition, for every corpus file and every fixture. */
export function aslWorkflows(): Record<string, Definition> {
  const out: Record<string, Definition> = {};
  for (const file of corpusFiles()) {
    const workflowName = workflowNameOf(file);
    out[workflowName] = fromAsl(fs.readFileSync(path.join(CORPUS, file), 'utf8'), {
      workflowName,
      tasks: BY_STATE[file] ?? {},
      defaultTask: (t) => corpusTask(t.functionName),
    });
  }
  for (const file of fixtureFiles()) {
    const workflowName = workflowNameOf(file);
    out[workflowName] = fromAsl(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), { workflowName, defaultTask: (t) => ({ entry: FEATURES_HANDLERS, handler: t.functionName }) });
  }
  return out;
}
