/**
 * The unum context a handler receives after its other arguments (docs/architecture.md
 * "Effects"): who is running (run, node, invocation) and a stable key for effects
 * outside unum's reach. The effect operations (`unum-cdk/effects`) read the
 * execution's port from it; they are bundled only into handlers that import them.
 */
import { createHash } from 'node:crypto';
import { itemTtl } from '../records/retention';
import type { CheckpointStore } from '../ports/store';
import type { Exec } from '../ports/execution';

/**
 * What a handler learns about its invocation. Every execution of one
 * invocation (a Lambda retry, a duplicate delivery, a retry rule's next
 * attempt) sees the same values.
 */
export interface UnumContext {
  /** The workflow's name. */
  readonly workflow: string;
  /** The run id (`workflowId`). */
  readonly runId: string;
  /** The node (state) this handler runs for. */
  readonly node: string;
  /** The invocation name: the run, node, loop iteration and fan-out position, hashed (43 characters). */
  readonly invocation: string;
  /**
   * A key for an external service's idempotency (e.g. a payment API's
   * `Idempotency-Key`): the same for every execution of this invocation,
   * different for every other invocation, run, workflow and deployment
   * (it hashes the function name too). 43 base64url characters.
   */
  readonly idempotencyKey: string;
  /**
   * A callback Task's token (`WAIT_FOR_TASK_TOKEN`): hand it to whoever
   * completes the task (`sendTaskSuccess` / `sendTaskFailure`). The same for
   * every execution of this invocation. Absent on other Tasks.
   */
  readonly taskToken?: string;
}

/** What the effect operations need from the execution; not part of the public context. */
export interface EffectsPort {
  readonly store: CheckpointStore;
  /** The TTL of an effect record written now: a checkpoint's (the retention, and no earlier than the run's lease). */
  recordTtl(): number;
  /** The longest time until another execution of this invocation starts (IR `handoffSeconds`). */
  readonly handoffSeconds: number;
  /** Milliseconds left in this Lambda execution. */
  remainingMs(): number;
}

/** The key of the port on a context: global, so that two copies of the runtime in one process agree. */
export const EFFECTS_PORT = Symbol.for('unum-cdk.effects-port');

/** The context of one call of the user's function; `remainingMs` as the deadline of that call counts it. */
export function handlerContext(x: Exec, remainingMs: () => number): UnumContext {
  const { ir } = x.rt;
  const port: EffectsPort = {
    store: x.rt.store,
    recordTtl: () => itemTtl(x),
    handoffSeconds: ir.settings.handoffSeconds,
    remainingMs,
  };
  const idempotencyKey = createHash('sha256').update(JSON.stringify([x.ctx.functionName ?? '', x.name])).digest('base64url');
  const context: UnumContext = { workflow: ir.workflow, runId: x.run.workflowId, node: ir.node, invocation: x.name, idempotencyKey, ...(x.taskToken ? { taskToken: x.taskToken } : {}) };
  return Object.defineProperty(context, EFFECTS_PORT, { value: port });
}
