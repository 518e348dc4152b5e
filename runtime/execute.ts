/**
 * One execution of one invocation (docs/architecture.md "Exactly-once
 * protocol"): ingress (own checkpoint, inputs), the computation, egress
 * (conditional checkpoint), instructions, GC; then one log line and one EMF line.
 */
import { commit, fromCheckpoint } from './egress';
import { TERMINAL_ERRORS } from './errors';
import { runFold } from './fold';
import { collect } from './gc';
import { joinCleanup, resolveInput } from './ingress';
import { contextObject, leadingPasses, proceed } from './interpreter';
import { passOutput, processInput, processOutput } from './io';
import { emitMetrics, logTransition } from './log';
import { invocationName } from './naming';
import { errorMessage, errorName } from './retry';
import { failRun, startRun } from './run-record';
import { checkpointKey } from './table';
import { callUser, compute } from './user-code';
import type { Exec, Invocation, LambdaContext, Runtime } from './types';

/**
 * Our checkpoint is a tombstone: we committed and every successor did too.
 * An execution that crashed before its GC may have left our own cleanup
 * undone (the parent, a join's tails and shards); redo it, it is idempotent.
 */
async function finishCleanup(x: Exec): Promise<string> {
  await collect(x, await joinCleanup(x));
  return 'tombstone';
}

/** A node with a user or pass handler. Returns the outcome for the log. */
async function runNode(x: Exec): Promise<string> {
  const { ir } = x.rt;
  const own = await x.rt.store.getCheckpoint(x.key);
  if (own?.tombstone) return finishCleanup(x);
  if (own) {
    // A retry or duplicate after commit: skip user code, redo the idempotent rest.
    x.metrics.duplicates = 1;
    const cleanup = await joinCleanup(x);
    await proceed(x, fromCheckpoint(x.key, own));
    await collect(x, cleanup);
    return 'duplicate';
  }
  const resolved = await resolveInput(x);
  if (!resolved) return 'stale';
  const input = resolved.value;
  const context = contextObject(x);
  const spec = ir.handler;
  const result = await compute(x, input, async () =>
    spec.kind === 'pass'
      ? passOutput(ir.io, spec.result, input, context)
      : processOutput(ir.io, input, await callUser(x, [processInput(ir.io, input, context), x.ctx]), context),
  );
  const ck = await commit(x, result.catchIndex === undefined ? leadingPasses(x, result.value) : result.value, result.catchIndex);
  if (!ck) return finishCleanup(x);
  await proceed(x, ck);
  await collect(x, resolved.cleanup);
  return ck.catchIndex === undefined ? 'committed' : 'caught';
}

export async function execute(rt: Runtime, inv: Invocation, ctx: LambdaContext): Promise<void> {
  const started = Date.now();
  const { ir } = rt;
  const foldIndex = ir.handler.kind === 'fold' ? (inv.fold?.index ?? 0) : undefined;
  const name = invocationName(inv.workflowId, ir.node, inv.iteration, inv.frames, foldIndex);
  const x: Exec = { rt, inv, ctx, name, key: checkpointKey(name), metrics: {}, attempts: 0, userMs: 0 };
  const report = (outcome: string, error?: unknown): void => {
    if (x.userMs > 0) x.metrics.userCodeDuration = x.userMs;
    logTransition({
      workflowId: inv.workflowId,
      node: ir.node,
      invocation: name,
      attempt: x.attempts,
      outcome,
      durations: { totalMs: Date.now() - started, userMs: x.userMs },
      ...(error === undefined ? {} : { error: errorName(error), cause: errorMessage(error) }),
    });
    emitMetrics(ir.workflow, ir.node, x.metrics);
  };
  try {
    if (inv.start) await startRun(x);
    report(ir.handler.kind === 'fold' ? await runFold(x) : await runNode(x));
  } catch (e) {
    if (!TERMINAL_ERRORS.has(errorName(e))) {
      // Lambda retries the invocation; when its retries are exhausted the failure recorder ends the run.
      x.metrics.failures = 1;
      report('error', e);
      throw e;
    }
    // No retry can change a bad path or an oversized value: end the run now.
    await failRun(x, errorName(e), errorMessage(e));
    report('failed', e);
  }
}
