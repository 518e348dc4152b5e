/**
 * Inputs and expected results of the fault-test workflows and the examples,
 * shared by the jest suites and `npm run test:faults`.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import type { Json } from '../../../runtime/contract/ir';
import type { Committed, Expectation } from '../../../lib/testing/checker';
import type { Target } from '../../../lib/testing/campaign';
import type { LocalEngine } from '../../../lib/local/engine';
import type { RunIntervention } from '../../../lib/testing/fault-run';
import { answerTasks, tokensHandedOut } from '../../../lib/local/task-tokens';
import { UnumClient, UnumClientError, UnumTaskAlreadyCompletedError } from '../../../lib/client';
import { localClients } from '../../../lib/client/stack';
import { exampleInput, exampleTaskSuccess } from '../../../examples/inputs';
import { WORKFLOWS_WITH_DATABASE } from '../../../examples/orders/database';
import type { Order } from '../../../examples/orders/handlers';
import type { OrdersDatabase } from '../../support/orders-database';
import { flakyFixFile } from './handlers';
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

/** A delay of 0 to `boundMs` drawn from the run id: the same for a run's replays, spread over the campaign's runs. */
export const delayOf = (workflowId: string, boundMs: number): number => createHash('sha256').update(workflowId).digest().readUInt32BE(0) % boundMs;

/**
 * A stop request racing the run to its end, sent after a delay drawn from the
 * run id (0-400 ms: before, during or after the run's few transitions) by
 * `UnumClient.stop`, through the run-control function's `stop` alias; it
 * counts as the run's final write when it ended it. A stop sent before the
 * entry wrote the run record finds no run, and changes nothing.
 */
const stopRacingTheEnd: RunIntervention = async (engine, workflow, workflowId) => {
  const delay = delayOf(workflowId, 400);
  await new Promise((r) => setTimeout(r, delay));
  try {
    const { stopped } = await clientOn(engine, workflow).stop(workflowId, { error: 'Stopped', cause: 'stop request racing the run' });
    return { ends: stopped ? 1 : 0, redrives: 0 };
  } catch (e) {
    if (e instanceof UnumClientError && /not found: not started yet/.test(e.message)) return { ends: 0, redrives: 0 };
    throw e;
  }
};

/** A client of `workflow` on the engine, as `UnumClient.fromCloudAssembly(..., { localEngine })` makes one. */
export function clientOn(engine: LocalEngine, workflow: string): UnumClient {
  const wf = engine.workflow(workflow);
  const taskResponseFunction = [...engine.app.functions.keys()].find((name) => name.endsWith(`-${wf.name}-unum-task-response`));
  return UnumClient.forWorkflow({
    entryFunction: wf.entryFunction,
    table: wf.tableName,
    workflow: wf.name,
    ...(taskResponseFunction ? { taskResponseFunction } : {}),
    ...(wf.runControlFunction ? { runControlFunction: wf.runControlFunction } : {}),
    ...localClients(engine.environment, {}),
  });
}

/** Whether a response completed the task (true) or found it completed already (false). */
export async function completes(respond: Promise<void>): Promise<boolean> {
  try {
    await respond;
    return true;
  } catch (e) {
    if (e instanceof UnumTaskAlreadyCompletedError) return false;
    throw e;
  }
}

/**
 * Completes each token the run hands out twice at once, after a delay drawn
 * from the run id (0-150 ms: before or after its one-minute timeout, 30-60 ms
 * on the campaign's time scale), and once more after the run ended. Throws
 * (the run is then reported as a violation) unless exactly the responses
 * that made the result completed the task: one when the run took the
 * approval, none when the timeout won.
 */
const answerRacingTheTimeout: RunIntervention = async (engine, workflow, workflowId) => {
  const client = clientOn(engine, workflow);
  const delay = delayOf(workflowId, 150);
  const ended = engine.waitForRun(workflow, workflowId, { timeoutMs: 120_000 });
  const completed: boolean[] = [];
  const tokens: string[] = [];
  await answerTasks(engine, workflowId, ended, async (token) => {
    tokens.push(token);
    await new Promise((r) => setTimeout(r, delay));
    completed.push(...(await Promise.all([0, 1].map(() => completes(client.sendTaskSuccess(token, { ok: true }))))));
  });
  const record = await ended;
  for (const token of tokens) completed.push(await completes(client.sendTaskSuccess(token, { late: true })));
  const wins = completed.filter(Boolean).length;
  const approved = record.status === 'SUCCEEDED' && JSON.stringify(record.result) === JSON.stringify({ x: 1 });
  if (tokens.length !== 1 || wins !== (approved ? 1 : 0)) {
    throw new Error(`callback: ${tokens.length} tokens handed out, ${wins} of ${completed.length} responses completed the task, run ${record.status} ${JSON.stringify(record.result ?? record.error)}`);
  }
  return { ends: 0, redrives: 0 };
};

/**
 * Answers the first token with the failure `Declined` twice at once, after a
 * delay drawn from the run id (racing its timeout, as `answerRacingTheTimeout`),
 * which the Task's Retry rule retries: the Task runs again and hands out a
 * second token, answered with success twice at once; each token once more after
 * the run ended. Throws unless exactly one response completed each attempt
 * that a response decided: one token and no win when the first timeout won;
 * two tokens, the first's failure won, and the second's success won exactly
 * when the run has the approval's result.
 */
const answerFailureThenSuccess: RunIntervention = async (engine, workflow, workflowId) => {
  const client = clientOn(engine, workflow);
  const delay = delayOf(workflowId, 150);
  const ended = engine.waitForRun(workflow, workflowId, { timeoutMs: 120_000 });
  const tokens: string[] = [];
  const wins: number[] = [];
  await answerTasks(engine, workflowId, ended, async (token) => {
    const first = tokens.push(token) === 1;
    if (first) await new Promise((r) => setTimeout(r, delay));
    const respond = (): Promise<void> => (first ? client.sendTaskFailure(token, 'Declined', 'first answer') : client.sendTaskSuccess(token, { ok: true }));
    wins.push((await Promise.all([0, 1].map(() => completes(respond())))).filter(Boolean).length);
  });
  const record = await ended;
  // The second token's timeout can end the run before the polling saw the token: it counts, unanswered until now.
  for (const token of tokensHandedOut(engine.traffic.of(workflowId), engine.app.functions)) {
    if (!tokens.includes(token)) wins[tokens.push(token) - 1] = 0;
  }
  for (const [i, token] of tokens.entries()) if (await completes(client.sendTaskSuccess(token, { late: true }))) wins[i] = (wins[i] ?? 0) + 1;
  const approved = record.status === 'SUCCEEDED' && JSON.stringify(record.result) === JSON.stringify({ x: 1 });
  const expected = tokens.length === 1 ? [0] : [1, approved ? 1 : 0];
  if (tokens.length > 2 || JSON.stringify(wins) !== JSON.stringify(expected)) {
    throw new Error(`callback retry: ${tokens.length} tokens handed out, wins per token ${JSON.stringify(wins)} (expected ${JSON.stringify(expected)}), run ${record.status} ${JSON.stringify(record.result ?? record.error)}`);
  }
  return { ends: 0, redrives: 0 };
};

/**
 * Redrives the run once it is FAILED (its Flaky step or branch fails until the file the
 * handler looks for exists: the fix, deployed before the redrive), once:
 * Lambda's retries of a duplicate delivery of Flaky's event, begun before the
 * fix, may exhaust after the redrive, and the failure recorder must take that
 * failure for stale (the redrive re-sent the event: docs/architecture.md
 * "Redrive", the generation), not fail the resumed run again: the run ends
 * with its result, written once after the failure (invariant 1 allows one
 * final write for the redrive). A run that does not reach FAILED within the
 * bound is reported.
 */
const redriveAfterTheFailure: RunIntervention = async (engine, workflow, workflowId) => {
  const failed = await engine.waitForRun(workflow, workflowId, { timeoutMs: 120_000 });
  if (failed.status !== 'FAILED') throw new Error(`redrive: the run ended ${failed.status}, not FAILED`);
  fs.writeFileSync(flakyFixFile(workflowId), 'fixed');
  const { resumed } = await clientOn(engine, workflow).redrive(workflowId);
  if (resumed < 1) throw new Error('redrive: nothing was resumed');
  return { ends: 0, redrives: 1 };
};

/**
 * Issue 18's run control, in the default campaign (figure 9's set): a stop
 * racing the run's end (either the run's result or ABORTED, one final write
 * either way), a run that outlives its timeout (TIMED_OUT by the recorder's
 * schedule or by the execution that finds the deadline passed), and a
 * callback completed twice at once and once late, racing its timeout (the
 * task completes once), a callback whose failure its Retry rule retries
 * (each attempt completes once, the second with a new token), and a redrive after a failure (FAILED once, then one
 * result: invariant 1 allows one final write per redrive), of a step and of a Parallel whose rules did not handle it.
 */
export const RUN_CONTROL_TARGETS: readonly Target[] = [
  {
    workflow: 'StopRace',
    input: { x: 2 },
    expect: () => ({ kind: 'oneOf', expectations: [{ kind: 'result', result: { sum: 12, parts: [2, 4, 6] } }, { kind: 'ended', status: 'ABORTED', error: 'Stopped' }] }),
    during: stopRacingTheEnd,
  },
  { workflow: 'TimesOut', input: { x: 1 }, expect: () => ({ kind: 'ended', status: 'TIMED_OUT', error: 'States.Timeout' }) },
  { workflow: 'RedriveAfterFailure', input: { x: 5 }, expect: () => ({ kind: 'result', result: { x: 15 } }), during: redriveAfterTheFailure },
  // Redriven, the Parallel runs again as its next attempt: both branches anew, the fixed one succeeding.
  { workflow: 'RedriveStateFailure', input: { x: 5 }, expect: () => ({ kind: 'result', result: [{ x: 5 }, { x: 10 }] }), during: redriveAfterTheFailure },
  {
    workflow: 'CallbackRace',
    input: { x: 1 },
    // The approval's result (through AfterAsk), or the Catch handler's, which ends the run.
    expect: (): Expectation => ({ kind: 'oneOf', expectations: [{ kind: 'result', result: { x: 1 } }, { kind: 'result', result: { timedOut: true } }] }),
    during: answerRacingTheTimeout,
  },
  {
    workflow: 'CallbackRetry',
    input: { x: 1 },
    // The second attempt's approval (through AfterRetry), or the Catch handler's after either attempt timed out.
    expect: (): Expectation => ({ kind: 'oneOf', expectations: [{ kind: 'result', result: { x: 1 } }, { kind: 'result', result: { timedOut: true } }] }),
    during: answerFailureThenSuccess,
  },
];

export const FAULT_APP_DIR = __dirname;

/**
 * The example workflows of the app in `appDir` the engine runs, on their
 * `examples/<name>/input.json`, but those with a callback Task; the Orders example with its effects checked
 * (invariant 7) on `database`, which it needs.
 */
export async function exampleTargets(appDir: string, engine: LocalEngine, database?: OrdersDatabase): Promise<Target[]> {
  const targets: Target[] = [];
  for (const { name: workflow } of engine.workflows) {
    const file = exampleInput(appDir, workflow);
    // An example with a callback Task needs an approver and waits a day (43 s at the campaign's time scale):
    // its mechanisms are campaign targets of their own (CallbackRace, Waits).
    if (!file || exampleTaskSuccess(appDir, workflow)) continue;
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
