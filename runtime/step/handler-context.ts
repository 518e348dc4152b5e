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
import type { UnumContext } from '../contract/handler-api';

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
