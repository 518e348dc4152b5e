/**
 * One execution of one invocation: the exactly-once step (runtime/step/step.ts) of
 * a plain node or of a fold step, then one log line and one EMF line. A
 * terminal error ends the run; any other goes back to Lambda to retry.
 */
import { contextObject } from '../language/context';
import { StateFailedError, TERMINAL_ERRORS } from '../contract/errors';
import { runFold } from './fold';
import { decidedAttemptKey, resolveInput } from './inputs';
import { failRunOrState, proceed } from './interpreter';
import type { EnclosingJoin, HandlerSpec, NodeIR } from '../contract/ir';
import { passStateOutput, stateArguments, stateOutput } from '../language/state-io';
import { emitMetrics, writeTransitionLog } from '../ports/log';
import { launcherName, runLauncher } from './launch-tree';
import { keepLease, startLease } from '../records/retention';
import { invocationName } from '../contract/naming';
import { errorMessage, errorName } from '../states/retry';
import { replacedKey } from './redrive-reuse';
import { failRun, startRun } from '../records/run-record';
import { decideState, redriveState } from './state-decision';
import { exactlyOnceStep, type StepOutcome } from './step';
import { checkpointKey, retriedErrors } from '../contract/table';
import { callUser, compute } from './user-code';
import type { Exec, Invocation, Runtime, TaskCompletion, TaskPort } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';

function tasksOf(x: Exec): TaskPort {
  if (!x.rt.tasks) throw new Error(`unum: node ${x.rt.ir.node} is a callback Task, and its bundle lacks the callback runtime`);
  return x.rt.tasks;
}

/** A node with a user or pass handler; for a callback Task, the handler's part or a completion's (runtime/callbacks/callback.ts). */
function runNode(x: Exec, spec: Exclude<HandlerSpec, { kind: 'fold' }>, completion?: TaskCompletion): Promise<StepOutcome> {
  const { ir } = x.rt;
  const decided = decidedAttemptKey(x);
  return exactlyOnceStep(x, () => {
    // An item launched late into a state attempt that a failing branch decided already does not run.
    if (decided && x.read?.checkpoints.has(decided)) return 'abandoned';
    return {
      instructionsFollow: true,
      async computeOutput() {
        if (completion) return tasksOf(x).completionOutput(x, completion);
        const resolved = await resolveInput(x);
        if (!resolved) return undefined;
        const input = resolved.value;
        if (ir.callback) return tasksOf(x).handOutToken(x, input);
        const context = contextObject(x);
        return compute(x, input, async () =>
          spec.kind === 'pass'
            ? passStateOutput(ir.io, spec.result, input, context)
            : stateOutput(ir.io, input, await callUser(x, [await stateArguments(ir.io, input, context)], x.ctx), context),
        );
      },
      afterCommit: (ck) => proceed(x, ck),
    };
  }, { readBesideCommit: !completion && !ir.callback });
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

/** The execution's work, after the run's start or lease check. */
async function runStep(x: Exec, completion: TaskCompletion | undefined): Promise<ExecutionEnd['outcome']> {
  const { invocation } = x;
  const spec = x.rt.ir.handler;
  if (invocation.start) {
    // A new run holds only the record it writes now, with a TTL no earlier than the lease.
    x.lease = startLease(x);
    if (!(await startRun(x))) return 'duplicate';
  } else await keepLease(x);
  const { input } = invocation;
  if ('launch' in input) return runLauncher(x, input.launch);
  if ('failed' in input) return decideState(x, input.failed);
  return spec.kind === 'fold' ? runFold(x, spec) : runNode(x, spec, completion);
}

/** How an execution ended: its log line's outcome, and whether another execution committed the invocation first. */
export interface ExecutionEnd {
  readonly outcome: StepOutcome | 'launched' | 'error' | 'failed';
  readonly duplicate: boolean;
}

/** The name of the invocation `invocation` is to this node: its checkpoint's, its parked item's (a launcher's, which commits nothing, has one of its own). */
export function executionName(ir: NodeIR, invocation: Invocation): string {
  const run = { workflow: ir.workflow, workflowId: invocation.workflowId };
  const foldIndex = ir.handler.kind === 'fold' ? (invocation.fold?.index ?? 0) : undefined;
  const { input } = invocation;
  return 'launch' in input ? launcherName({ run }, ir.node, invocation, input.launch) : invocationName(run, ir.node, invocation.iteration, invocation.frames, foldIndex);
}

export async function execute(rt: Runtime, received: Invocation, ctx: LambdaContext, completion?: TaskCompletion): Promise<ExecutionEnd> {
  const started = Date.now();
  const { ir } = rt;
  const invocation = withEnclosingJoin(received, ir.enclosingJoin);
  const spec = ir.handler;
  const foldIndex = spec.kind === 'fold' ? (invocation.fold?.index ?? 0) : undefined;
  const run = { workflow: ir.workflow, workflowId: invocation.workflowId };
  const input = invocation.input;
  const launcher = 'launch' in input;
  const name = executionName(ir, invocation);
  // A launcher commits nothing, so reuses nothing.
  const replaced = launcher ? undefined : replacedKey(run, ir.node, invocation.iteration, invocation.frames, foldIndex);
  const x: Exec = { rt, invocation, ctx, run, name, key: checkpointKey(name), ...(replaced ? { replaced } : {}), metrics: {}, lease: invocation.lease ?? 0, attempts: 0, attemptErrors: [], userMs: 0 };
  let end: ExecutionEnd['outcome'] = 'error';
  const report = (outcome: ExecutionEnd['outcome'], error?: unknown): void => {
    end = outcome;
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
    report(await runStep(x, completion));
  } catch (e) {
    if (e instanceof StateFailedError) {
      // Decided already (no rule inside handled it): no Lambda retry changes it; a redrive runs the state again.
      await failRunOrState(x, e.error, e.cause, undefined, redriveState(x));
      report('failed', e);
    } else if (!TERMINAL_ERRORS.has(errorName(e))) {
      // Lambda retries the invocation; when its retries are exhausted the failure recorder ends the run.
      x.metrics.failures = 1;
      report('error', e);
      throw e;
    } else {
      // No retry can change a bad path or an oversized value: end the run now.
      await failRun(x, errorName(e), errorMessage(e));
      report('failed', e);
    }
  }
  return { outcome: end, duplicate: x.metrics.duplicates === 1 };
}
