/**
 * The redeploy campaign's workflows (app.ts), its shapes and their synthesis,
 * shared by test/faults/redeploy.test.ts and `npm run test:faults -- --redeploy`.
 */
import * as path from 'path';
import type { Target } from '../../../lib/testing/campaign';
import type { RunIntervention } from '../../../lib/testing/fault-run';
import type { RedeployShape } from '../../../lib/testing/redeploys';
import { answerTasks } from '../../../lib/local/task-tokens';
import { synthesize } from '../../../lib/local/synth';
import { clientOn, completes, delayOf } from '../app/targets';

export const REDEPLOY_APP_DIR = __dirname;

/** The shapes of the app (`-c unumShape=N`). */
export const REDEPLOY_SHAPES = [1, 2, 3, 4] as const;

/** How long a run may wait for its answer's effect before it is reported. */
const ANSWER_BOUND_MS = 5 * 60_000;

/**
 * Answers Approval's callback as a partner would, 0-500 ms after its token
 * is handed out (drawn from the run id), while deploys go on: the answer
 * goes to the deployment the token names, also once a later shape dropped
 * the Task. Each token handed out is answered once;
 * an answer that finds the task completed is no error. A run still
 * RUNNING after `ANSWER_BOUND_MS` is reported (far beyond the Task's own
 * timeout, a day: 43 s on the campaign's time scale).
 */
const answerTheCallback: RunIntervention = async (engine, workflow, workflowId) => {
  const client = clientOn(engine, workflow);
  const ended = engine.waitForRun(workflow, workflowId, { timeoutMs: ANSWER_BOUND_MS });
  await answerTasks(engine, workflowId, ended, async (token) => {
    await new Promise((r) => setTimeout(r, delayOf(workflowId, 500)));
    await completes(client.sendTaskSuccess(token, { approved: true }));
  });
  await ended;
  return { ends: 0, redrives: 0 };
};

/** Each workflow once per seed cycle; results come from each deployment's reference run. */
export const REDEPLOY_TARGETS: readonly Target[] = [
  { workflow: 'Approval', input: { x: 3 }, during: answerTheCallback },
  { workflow: 'Paused', input: { x: 2 } },
  { workflow: 'Batch', input: { n: 3 } },
  { workflow: 'Chain', input: {} },
];

/** Synthesizes every shape into `<root>/shape-N`, two at a time (each `cdk synth` bundles every function). */
export async function synthesizeShapes(root: string): Promise<RedeployShape[]> {
  const shapes = REDEPLOY_SHAPES.map((n) => ({ name: `shape ${n}`, dir: path.join(root, `shape-${n}`), n }));
  for (let i = 0; i < shapes.length; i += 2) {
    await Promise.all(shapes.slice(i, i + 2).map((s) => synthesize({ appDir: REDEPLOY_APP_DIR, outDir: s.dir, context: { unumShape: String(s.n) } })));
  }
  return shapes.map(({ name, dir }) => ({ name, dir }));
}
