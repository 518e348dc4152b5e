/**
 * One execution of one invocation: the exactly-once step (runtime/step.ts) of
 * a plain node or of a fold step, then one log line and one EMF line. A
 * terminal error ends the run; any other goes back to Lambda to retry.
 */
import { contextObject } from './context';
import { StateFailedError, TERMINAL_ERRORS } from './errors';
import { runFold } from './fold';
import { decidedAttemptKey, resolveInput } from './ingress';
import { failRunOrState, proceed } from './interpreter';
import type { EnclosingJoin, HandlerSpec } from './ir';
import { passOutput, processInput, processOutput } from './io';
import { emitMetrics, writeTransitionLog } from './log';
import { launcherName, runLauncher } from './launch-tree';
import { keepLease, startLease } from './lease';
import { invocationName } from './naming';
import { errorMessage, errorName } from './retry';
import { failRun, startRun } from './run-record';
import { decideState } from './state-decision';
import { exactlyOnceStep, type StepOutcome } from './step';
import { checkpointKey, retriedErrors } from './table';
import { callUser, compute } from './user-code';
import type { Exec, Invocation, LambdaContext, Runtime } from './types';

/** A node with a user or pass handler. */
function runNode(x: Exec, spec: Exclude<HandlerSpec, { kind: 'fold' }>): Promise<StepOutcome> {
  const { ir } = x.rt;
  const decided = decidedAttemptKey(x);
  return exactlyOnceStep(x, () => {
    // An item launched late into a state attempt that a failing branch decided already does not run.
    if (decided && x.read?.checkpoints.has(decided)) return 'abandoned';
    return {
      instructionsFollow: true,
      async computeOutput() {
        const resolved = await resolveInput(x);
        if (!resolved) return undefined;
        const input = resolved.value;
        const context = contextObject(x);
        return compute(x, input, async () =>
          spec.kind === 'pass'
            ? passOutput(ir.io, spec.result, input, context)
            : processOutput(ir.io, input, await callUser(x, [processInput(ir.io, input, context)], x.ctx), context),
        );
      },
      afterCommit: (ck) => proceed(x, ck),
    };
  });
}

/**
 * The invocation with the node's enclosing join written into its last frame,
 * so that the envelopes it sends name the joins of all their frames.
 */
function withEnclosingJoin(invocation: Invocation, join: EnclosingJoin | undefined): Invocation {
  const last = invocation.frames.length - 1;
  if (!join || last < 0) return invocation;
  return { ...invocation, frames: invocation.frames.map((f, i) => (i === last ? { ...f, join } : f)) };
}

export async function execute(rt: Runtime, received: Invocation, ctx: LambdaContext): Promise<void> {
  const started = Date.now();
  const { ir } = rt;
  const invocation = withEnclosingJoin(received, ir.enclosingJoin);
  const spec = ir.handler;
  const foldIndex = spec.kind === 'fold' ? (invocation.fold?.index ?? 0) : undefined;
  const run = { workflow: ir.workflow, workflowId: invocation.workflowId };
  const input = invocation.input;
  const name = 'launch' in input ? launcherName({ run }, ir.node, invocation, input.launch) : invocationName(run, ir.node, invocation.iteration, invocation.frames, foldIndex);
  const x: Exec = { rt, invocation, ctx, run, name, key: checkpointKey(name), metrics: {}, lease: invocation.lease ?? 0, attempts: 0, attemptErrors: [], userMs: 0 };
  const report = (outcome: StepOutcome | 'launched' | 'error' | 'failed', error?: unknown): void => {
    if (x.userMs > 0) x.metrics.userCodeDuration = x.userMs;
    writeTransitionLog({
      workflowId: invocation.workflowId,
      node: ir.node,
      ...(ir.state === undefined ? {} : { state: ir.state }),
      invocation: name,
      attempt: x.attempts,
      ...(x.attempts > 1 ? { retried: retriedErrors(x.attemptErrors, x.attempts) } : {}),
      outcome,
      durations: { totalMs: Date.now() - started, userMs: x.userMs },
      ...(error === undefined ? {} : { error: errorName(error), cause: errorMessage(error) }),
    });
    emitMetrics(ir.workflow, ir.node, x.metrics);
  };
  try {
    if (invocation.start) {
      // A new run holds only the record it writes now, with a TTL no earlier than the lease.
      x.lease = startLease(x);
      if (!(await startRun(x))) return report('duplicate');
    } else await keepLease(x);
    if ('launch' in input) report(await runLauncher(x, input.launch));
    else report('failed' in input ? await decideState(x, input.failed) : spec.kind === 'fold' ? await runFold(x, spec) : await runNode(x, spec));
  } catch (e) {
    if (e instanceof StateFailedError) {
      // Decided already (no rule inside handled it): no Lambda retry changes it.
      await failRunOrState(x, e.error, e.cause);
      report('failed', e);
      return;
    }
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
