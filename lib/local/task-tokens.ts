/**
 * Task tokens a run's callback Tasks handed out, as the local engine sees
 * them: every waiting record (`task#<invocation>`, docs/architecture.md
 * "Callbacks") an execution put holds the token's secret, and the execution
 * names the run and the Task. For tools that must complete callbacks without
 * knowing where a workflow's handler sends its tokens (`unum cost
 * --task-success`, the cost benchmark); an app's own tests should take the
 * token where their handler puts it, as a user would.
 */
import { decodeTaskWait, type Item, parseKey, TABLE } from '../../runtime/contract/table';
import { encodeTaskToken } from '../../runtime/contract/task-token';
import { qualifiedRef, type LocalFunction } from './assembly';
import type { LocalEngine } from './engine';
import type { CallRecord } from './call-records';

const POLL_MS = 50;

/** The tokens of the waiting records `calls` wrote (a put that lost its condition wrote none), in the order written. */
export function tokensHandedOut(calls: readonly CallRecord[], functions: ReadonlyMap<string, LocalFunction>): string[] {
  const tokens: string[] = [];
  for (const c of calls) {
    if (c.call.operation !== 'PutItem' || c.status !== 200) continue;
    const item = (JSON.parse(c.request) as { Item?: Item }).Item;
    const key = parseKey(item?.[TABLE.partitionKey]?.S ?? '');
    const secret = decodeTaskWait(item)?.secret;
    // The version the execution ran: an older deployment's IR for a run pinned to it.
    const ir = functions.get(qualifiedRef(c.exec.functionName, c.exec.qualifier))?.ir;
    if (key?.kind !== 'taskWait' || !secret || !ir || !c.exec.workflowId) continue;
    tokens.push(encodeTaskToken({ workflow: ir.workflow, workflowId: c.exec.workflowId, node: ir.node, invocation: key.invocation, secret, deployment: ir.deployment }));
  }
  return tokens;
}

/**
 * Answers each token run `workflowId` hands out with `respond`, once, as soon
 * as its waiting record is written, until `ended` settles. Resolves to the
 * number of tokens answered.
 */
export async function answerTasks(engine: LocalEngine, workflowId: string, ended: Promise<unknown>, respond: (token: string) => Promise<void>): Promise<number> {
  let done = false;
  const stop = (): void => { done = true; };
  ended.then(stop, stop);
  const answered = new Set<string>();
  while (!done) {
    for (const token of tokensHandedOut(engine.traffic.of(workflowId), engine.app.functions)) {
      if (answered.has(token)) continue;
      answered.add(token);
      await respond(token);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return answered.size;
}
