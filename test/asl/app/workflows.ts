/**
 * The workflows of the ASL end-to-end tests: the documents of
 * test/asl/fixtures, and the optional corpus where it is found
 * (test/asl/optional-corpus.ts), imported with `fromAsl`, each Task mapped to
 * a small handler in test/asl/handlers.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Definition } from '../../../lib/definition';
import { fromAsl, type AslTaskProps, type FromAslOptions } from '../../../lib/asl';
import { appstoreFiles, readAppstore } from '../optional-corpus';

const CORPUS_HANDLERS = path.join(__dirname, '..', 'handlers', 'corpus.ts');
const FEATURES_HANDLERS = path.join(__dirname, '..', 'handlers', 'features.ts');
const SHAPES_HANDLERS = path.join(__dirname, '..', 'handlers', 'shapes.ts');
export const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** The handler module of each fixture; the others' are in handlers/features.ts. */
const FIXTURE_HANDLERS: Record<string, string> = Object.fromEntries(
  ['relay.asl.json', 'sort-parcels.asl.json', 'video-frames.asl.json', 'order-check.asl.json', 'word-lengths.asl.json'].map((f) => [f, SHAPES_HANDLERS]),
);

const corpusTask = (handler: string): AslTaskProps => ({ entry: CORPUS_HANDLERS, handler });

/** Most corpus Tasks run the export named like their function; a few states need their own (keyed by state name). */
const BY_STATE: Record<string, FromAslOptions['tasks']> = {
  // Both "Publish" and "Summary" are also names of other apps' functions, with other inputs.
  'image-process.asl.json': { Publish: corpusTask('publishImage') },
  'wordcount.asl.json': { Summary: corpusTask('wordcountSummary') },
  'step-functions-wordcount.asl.json': { Summary: corpusTask('wordcountSummary') },
  // Real Lambda ARNs: map each state by its name.
  'step-functions-text-processing-arn.asl.json': Object.fromEntries(['UserMention', 'FindUrl', 'ShortenUrl', 'CreatePost', 'Publish'].map((s) => [s, corpusTask(s)])),
};

/** `video-frames.asl.json` -> `video-frames`, `chain-Chain10.embedded.asl.json` -> `chain-Chain10-embedded`. */
export const workflowNameOf = (file: string): string => path.basename(file).replace(/(\.asl)?\.json$/, '').replace(/[^A-Za-z0-9_-]+/g, '-');

/** The documents the project ships for these tests. */
export function fixtureFiles(): string[] {
  return fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort();
}

export const readFixture = (file: string): string => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

/** Workflow name -> definition, for every fixture and every file of the optional corpus found. */
export function aslWorkflows(): Record<string, Definition> {
  const out: Record<string, Definition> = {};
  for (const file of fixtureFiles()) {
    const workflowName = workflowNameOf(file);
    const entry = FIXTURE_HANDLERS[file] ?? FEATURES_HANDLERS;
    out[workflowName] = fromAsl(readFixture(file), { workflowName, defaultTask: (t) => ({ entry, handler: t.functionName }) });
  }
  for (const file of appstoreFiles()) {
    const workflowName = workflowNameOf(file);
    out[workflowName] = fromAsl(readAppstore(file), {
      workflowName,
      tasks: BY_STATE[file] ?? {},
      defaultTask: (t) => corpusTask(t.functionName),
    });
  }
  return out;
}
