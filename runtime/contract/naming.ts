/**
 * Deterministic names of invocations (docs/architecture.md "Naming"); the
 * table keys derived from them are in runtime/contract/table/. A name depends only on local information,
 * so every execution of an invocation, and every party that must find its
 * checkpoint (successors, joins), computes the same 43 characters. The
 * workflow is part of it: workflows sharing a table never share a name.
 */
import { createHash } from 'node:crypto';
import type { LambdaContext } from './handler-api';
import { type NodeIR, qualifiedName } from './ir';
import type { RunRef } from './table';

/** The parts of a fan-out frame that identify a branch (size/kind/origin follow from them). */
export interface FramePosition {
  readonly iteration: number;
  readonly index: number;
}

export function invocationName(
  run: RunRef,
  node: string,
  iteration: number,
  frames: readonly FramePosition[],
  foldIndex?: number,
): string {
  const parts = [run.workflow, run.workflowId, node, iteration, frames.map((f) => [f.iteration, f.index]), foldIndex ?? null];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** The name of a run's timeout schedule: one per run, so the entry's retries create it once. */
export const runTimeoutName = (run: RunRef): string => createHash('sha256').update(JSON.stringify([run.workflow, run.workflowId, 'timeout'])).digest('base64url');

/**
 * The name this node's function invokes or schedules itself by (a redrive's
 * parked event, a callback Task's checks): qualified with the node's
 * deployment, so that what runs later runs the same deployment. Lambda's
 * context names the function unqualified. An IR of no deployment (compiled,
 * not deployed) keeps the name as given.
 */
export function ownFunctionName(ir: Pick<NodeIR, 'node' | 'deployment' | 'functionNames'>, ctx: Pick<LambdaContext, 'functionName'>): string | undefined {
  const name = ctx.functionName;
  if (!ir.deployment) return name ?? ir.functionNames[ir.node];
  return ir.functionNames[ir.node] ?? (name === undefined || name.includes(':') ? name : qualifiedName(name, ir.deployment));
}
