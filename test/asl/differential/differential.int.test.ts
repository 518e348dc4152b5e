/**
 * Differential test of the ASL importer: every document of documents/ runs
 * on every input of cases.ts through unum (imported with fromAsl,
 * synthesized with UnumWorkflow, run on the local engine) and through an
 * independent ASL interpreter (aws-local-stepfunctions), with the same Task
 * handlers. The outcomes (output, or error name and, for the workflow's own
 * errors, cause) must agree; where they do not, cases.ts pins unum's
 * outcome with the reason, and the peer must still disagree (else the pin
 * is stale).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Json } from '../../../runtime/contract/ir';
import { startLocalEngine, type LocalTestEngine } from '../../../lib/local';
import { synthesizeCorpus } from './app';
import { CASES, type Case, type PinKind } from './cases';
import { documentFiles, loadCorpus } from './corpus';
import { comparable, failed, succeeded, type Outcome } from './outcome';
import { runOnPeer } from './peer';
import { forEachGrouped } from '../../support/grouped-runs';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../../support/load';
import { engineDynamoDb } from '../../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

/** Documents run at once on the local engine (each document's cases in turn): enough to keep both cores busy, few enough to keep sandboxes warm. */
const CONCURRENT_DOCUMENTS = 8;
/** Where the retry handler counts attempts (handlers.ts); each side has its own directory. */
const ATTEMPTS_DIR = 'DIFFERENTIAL_ATTEMPTS_DIR';

interface Row extends Case {
  readonly doc: string;
  /** The run's id on both sides: unum's workflow id, what `$$.Execution.Id` reads. */
  readonly id: string;
}

const ROWS: Row[] = Object.entries(CASES).flatMap(([doc, cases]) => cases.map((c, i) => ({ ...c, doc, id: `${doc}-${i + 1}` })));

let outdir: string;
let engine: LocalTestEngine | undefined;
const previousAttemptsDir = process.env[ATTEMPTS_DIR];
const unumOutcomes = new Map<string, Outcome>();
const peerOutcomes = new Map<string, Outcome>();

async function runOnUnum(e: LocalTestEngine, row: Row): Promise<Outcome> {
  const run = await e.run(row.doc, row.input, { workflowId: row.id, timeoutMs: RUN_WAIT_MS });
  if (run.status === 'SUCCEEDED') return succeeded(run.result as Json);
  if (run.status !== 'FAILED') throw new Error(`${row.id}: the run ended ${run.status}`);
  return failed(run.error?.error ?? '', run.error?.cause);
}

beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-differential-'));
  const [unumAttempts, peerAttempts] = ['attempts-unum', 'attempts-peer'].map((d) => path.join(outdir, d));
  for (const d of [unumAttempts, peerAttempts]) fs.mkdirSync(d);
  const corpus = loadCorpus({ [ATTEMPTS_DIR]: unumAttempts });
  synthesizeCorpus(corpus, path.join(outdir, 'cdk.out'));
  const started = await startLocalEngine({ app: path.join(outdir, 'cdk.out'), ...engineDynamoDb() });
  engine = started;
  // The peer calls the handlers in this process.
  process.env[ATTEMPTS_DIR] = peerAttempts;
  const byName = new Map(corpus.map((d) => [d.name, d]));
  await Promise.all([
    forEachGrouped(ROWS, (row) => row.doc, CONCURRENT_DOCUMENTS, async (row) => {
      unumOutcomes.set(row.id, await runOnUnum(started, row));
    }),
    ...ROWS.map(async (row) => {
      const doc = byName.get(row.doc);
      if (doc) peerOutcomes.set(row.id, await runOnPeer(doc, row.input, row.id));
    }),
  ]);
  const pins = (kind: PinKind): number => ROWS.filter((r) => r.pin?.kind === kind).length;
  process.stdout.write(
    `differential: ${corpus.length} documents, ${ROWS.length} runs on each side; ${ROWS.filter((r) => !r.pin).length} compared, ` +
      `${pins('peer wrong')} pinned where the peer is wrong, ${pins('unum deliberate')} where unum differs on purpose, ${pins('unum gap')} on open gaps\n`,
  );
});

afterAll(async () => {
  await engine?.stop();
  if (previousAttemptsDir === undefined) delete process.env[ATTEMPTS_DIR];
  else process.env[ATTEMPTS_DIR] = previousAttemptsDir;
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

test('every document has cases, and every case a document', () => {
  expect(Object.keys(CASES).sort()).toEqual(documentFiles().map((f) => f.replace(/\.asl\.json$/, '')).sort());
  expect(Object.values(CASES).every((cases) => cases.length > 0)).toBe(true);
});

test.each(ROWS.map((r) => [r.id, JSON.stringify(r.input).slice(0, 80), r] as const))('%s %s', (_id, _input, row) => {
  const unum = comparable(unumOutcomes.get(row.id) as Outcome);
  const peer = comparable(peerOutcomes.get(row.id) as Outcome);
  if (!row.pin) {
    expect(unum).toEqual(peer);
    return;
  }
  expect(unum).toEqual(comparable(row.pin.expected));
  // The peer agreeing now makes the pin stale: remove it.
  expect(peer).not.toEqual(unum);
});
