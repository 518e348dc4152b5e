/**
 * Which callback Tasks a run waits on (docs/architecture.md "Callbacks"). A
 * waiting record `task#<invocation>` exists from the moment the Task hands
 * out its token; the Task is answered once its checkpoint exists. Both keys
 * are derived from the invocation's name, which only the run, the node, the
 * iteration and the fan-out frames determine: the client reads the run
 * record (the deployment its tokens route answers to, and the table format
 * its runtime names invocations in), computes the names of the workflow's
 * callback Tasks and reads the two items of each: a few key reads, no scan. A Task inside a Map or Parallel state has frames the
 * client cannot know, so it is not found here (`unum local run` names those
 * from the engine's traffic).
 */
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, decodeRunRecord, decodeTaskWait, formatOf, type RunRef, runKey, TABLE_FORMAT, taskWaitKey } from '../../runtime/contract/table';
import { encodeTaskToken } from '../../runtime/contract/task-token';
import type { HistoryEntry } from './history';
import type { TableReader } from '../runs/table-reader';

/** A callback Task that has handed out its task token and waits for the answer. */
export interface WaitingTask {
  /** The Task's node (its state name, unless the definition names the node otherwise). */
  readonly node: string;
  /** The loop iteration of the invocation that waits (0 outside loops). */
  readonly iteration: number;
  /** ISO-8601 time the Task recorded its wait, just before its handler ran. */
  readonly since: string;
  /** Heartbeats received so far (`sendTaskHeartbeat`). */
  readonly heartbeats: number;
  /** The task token to answer with `sendTaskSuccess`, `sendTaskFailure` or `sendTaskHeartbeat`. */
  readonly taskToken: string;
}

/**
 * The waiting callback Tasks of `run` among `callbackNodes`, oldest first.
 * Looked for at iteration 0 and at every iteration the history (when the
 * workflow keeps one) shows outside fan-outs: a callback Task in a loop
 * waits at the iteration of the step before it.
 */
export async function waitingTasks(table: TableReader, run: RunRef, callbackNodes: readonly string[], history: readonly HistoryEntry[] = []): Promise<WaitingTask[]> {
  if (callbackNodes.length === 0) return [];
  const iterations = [...new Set([0, ...history.filter((e) => e.indexes.length === 0).map((e) => e.iteration)])];
  const record = await table.get(runKey(run));
  // A run started by an older runtime (before table format 3) names its invocations as that runtime does.
  const format = record ? formatOf(record) : TABLE_FORMAT;
  const candidates = callbackNodes.flatMap((node) => iterations.map((iteration) => ({ node, iteration, invocation: invocationName(run, node, iteration, [], undefined, format) })));
  const items = await table.getMany(candidates.flatMap((c) => [taskWaitKey(c.invocation), checkpointKey(c.invocation)]));
  // The token routes the answer to the run's deployment, whose Task waits (a run never leaves its deployment while it runs).
  const deployment = (record && decodeRunRecord(record).deployment) ?? '';
  const waiting: { task: WaitingTask; at: number }[] = [];
  for (const c of candidates) {
    const wait = decodeTaskWait(items.get(taskWaitKey(c.invocation)));
    if (!wait || items.has(checkpointKey(c.invocation))) continue;
    const taskToken = encodeTaskToken({ ...run, node: c.node, invocation: c.invocation, secret: wait.secret, deployment });
    const task = { node: c.node, iteration: c.iteration, since: new Date(wait.startedAt).toISOString(), heartbeats: wait.beats, taskToken };
    waiting.push({ task, at: wait.startedAt });
  }
  return waiting.sort((a, b) => a.at - b.at).map((w) => w.task);
}
