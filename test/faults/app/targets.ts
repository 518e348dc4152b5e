/**
 * Inputs and expected results of the fault-test workflows and the examples,
 * shared by the jest suites and `npm run test:faults`.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import { DynamoDbStore } from '../../../runtime/dynamodb-store';
import type { Json } from '../../../runtime/ir';
import type { Committed, Expectation } from '../../../lib/local/checker';
import type { Target } from '../../../lib/local/campaign';
import type { LocalEngine } from '../../../lib/local/engine';
import type { RunIntervention } from '../../../lib/local/fault-run';
import { exampleInput } from '../../../examples/inputs';
import { WORKFLOWS_WITH_DATABASE } from '../../../examples/orders/database';
import type { Order } from '../../../examples/orders/handlers';
import type { OrdersDatabase } from '../../support/orders-database';
import { orderEffects } from './orders';

/** The committed value of the (only) invocation of `node` in a run. */
function committedOf(engine: LocalEngine, workflow: string, node: string, committed: Committed): Record<string, Json> {
  const fn = engine.workflow(workflow).nodes[node]?.functionName;
  const hit = [...committed].find(([identity]) => identity.startsWith(`${fn}@`));
  if (!hit) throw new Error(`no committed checkpoint of ${workflow}.${node}`);
  return hit[1] as Record<string, Json>;
}

/** Chain3's A draws a random nonce and C a timestamp: the result must carry the committed ones. */
function chain3Expectation(_ref: unknown, engine: LocalEngine): Expectation {
  return {
    kind: 'derived',
    expected: (committed) => ({
      x: 7,
      nonce: committedOf(engine, 'Chain3', 'A', committed).nonce as Json,
      at: committedOf(engine, 'Chain3', 'C', committed).at as Json,
    }),
  };
}

export const FAULT_TARGETS: readonly Target[] = [
  { workflow: 'Chain3', input: { x: 1 }, expect: chain3Expectation },
  { workflow: 'Parallel3', input: { x: 2 }, expect: () => ({ kind: 'result', result: { sum: 12, parts: [2, 4, 6] } }) },
  { workflow: 'Map5', input: { n: 5 }, expect: () => ({ kind: 'result', result: { total: 55 } }) },
  { workflow: 'NestedMap', input: { groups: [[1, 2], [3]] }, expect: () => ({ kind: 'result', result: { sums: [5, 4], total: 9 } }) },
  { workflow: 'Choice', input: { n: 5 }, expect: () => ({ kind: 'result', result: 'big 15' }) },
  { workflow: 'Loop', input: { n: 3 }, expect: () => ({ kind: 'result', result: { acc: 6 } }) },
  { workflow: 'Fails', input: { x: 1 }, expect: () => ({ kind: 'failed', error: 'TypeError' }) },
];

/** The shapes of issue 14's adversarial trial and issue 18's Waits, which the extended campaign (`--extended`) adds to the set of figure 9. */
export const SHAPE_TARGETS: readonly Target[] = [
  { workflow: 'MapInParallel', input: { items: [1, 2, 3], x: 4 }, expect: () => ({ kind: 'result', result: { incs: [2, 3, 4], doubled: 8 } }) },
  { workflow: 'ParallelLoop', input: { n: 3 }, expect: () => ({ kind: 'result', result: { acc: 6 } }) },
  { workflow: 'FoldAfterNestedMap', input: { groups: [[1, 2], [3]] }, expect: () => ({ kind: 'result', result: { total: 9, order: [0, 1] } }) },
  { workflow: 'CatchInMap', input: { n: 4 }, expect: () => ({ kind: 'result', result: { total: 16, caught: 2 } }) },
  { workflow: 'EdgeMaps', input: {}, expect: () => ({ kind: 'result', result: [{ inc: 8, none: [] }] }) },
  { workflow: 'Parallel1', input: { x: 2 }, expect: () => ({ kind: 'result', result: { sum: 4, parts: [4] } }) },
  { workflow: 'EndsInMap', input: { n: 3 }, expect: () => ({ kind: 'result', result: [2, 3, 4] }) },
  { workflow: 'LaunchTree', input: { n: 9 }, expect: () => ({ kind: 'result', result: 63 }) },
  // Issue 18: waits scheduled through the Scheduler emulator (an hour and a minute, scaled by the engine's time scale).
  { workflow: 'Waits', input: { n: 3 }, expect: () => ({ kind: 'result', result: 9 }) },
];

/**
 * Retry and Catch on a Map (issue 15), run by test/faults/state-rules.test.ts
 * apart from the extended set, whose seed-to-workflow mapping the recorded
 * figure 10 replays by.
 */
export const STATE_RULE_TARGETS: readonly Target[] = [
  { workflow: 'StateRules', input: { n: 4 }, expect: () => ({ kind: 'result', result: { items: 4, caught: 'OddItem' } }) },
];

/**
 * A stop request racing the run to its end, sent after a delay drawn from the
 * run id (0-400 ms: before, during or after the run's few transitions) as
 * `UnumClient.stop` sends it; it counts as the run's final write when it ended it.
 */
const stopRacingTheEnd: RunIntervention = async (engine, workflow, workflowId) => {
  const delay = createHash('sha256').update(workflowId).digest().readUInt32BE(0) % 400;
  await new Promise((r) => setTimeout(r, delay));
  const { tableName, name } = engine.workflow(workflow);
  const ended = await new DynamoDbStore(tableName, engine.dynamo).interruptRun({ workflow: name, workflowId }, { status: 'ABORTED', error: { node: '', error: 'Stopped', cause: 'stop request racing the run' } }, new Date().toISOString());
  return ended ? 1 : 0;
};

/**
 * Issue 18's run control, in the default campaign (figure 9's set): a stop
 * racing the run's end (either the run's result or ABORTED, one final write
 * either way), and a run that outlives its timeout (TIMED_OUT by the
 * recorder's schedule or by the execution that finds the deadline passed).
 */
export const RUN_CONTROL_TARGETS: readonly Target[] = [
  {
    workflow: 'StopRace',
    input: { x: 2 },
    expect: () => ({ kind: 'oneOf', expectations: [{ kind: 'result', result: { sum: 12, parts: [2, 4, 6] } }, { kind: 'ended', status: 'ABORTED', error: 'Stopped' }] }),
    during: stopRacingTheEnd,
  },
  { workflow: 'TimesOut', input: { x: 1 }, expect: () => ({ kind: 'ended', status: 'TIMED_OUT', error: 'States.Timeout' }) },
];

export const FAULT_APP_DIR = __dirname;

/**
 * The example workflows of the app in `appDir` the engine runs, on their
 * `examples/<name>/input.json`; the Orders example with its effects checked
 * (invariant 7) on `database`, which it needs.
 */
export async function exampleTargets(appDir: string, engine: LocalEngine, database?: OrdersDatabase): Promise<Target[]> {
  const targets: Target[] = [];
  for (const { name: workflow } of engine.workflows) {
    const file = exampleInput(appDir, workflow);
    if (!file) continue;
    const input = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
    if (!WORKFLOWS_WITH_DATABASE.includes(workflow)) {
      targets.push({ workflow, input });
      continue;
    }
    if (!database) throw new Error(`the example workflow ${workflow} needs the orders database (PostgreSQL): start it with startOrdersDatabase`);
    targets.push({ workflow, input, effects: await orderEffects(engine, workflow, database.pool, input as unknown as Order) });
  }
  return targets;
}
