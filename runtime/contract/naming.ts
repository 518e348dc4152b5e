/**
 * Deterministic names of invocations (docs/architecture.md "Naming"); the
 * table keys derived from them are in runtime/contract/table/. A name depends only on local information,
 * so every execution of an invocation, and every party that must find its
 * checkpoint (successors, joins), computes the same 43 characters. The
 * workflow is part of it twice: its tag begins the name, so that a grant can
 * be limited to the workflow's items (`workflowKeyPatterns`), and the digest
 * hashes its name, so workflows sharing a table never share a name.
 */
import { createHash } from 'node:crypto';
import type { LambdaContext } from './handler-api';
import { type NodeIR, qualifiedName } from './ir';
import { type RunRef, TABLE_FORMAT, WORKFLOW_TAG_LENGTH, workflowTag } from './table';

/** The parts of a fan-out frame that identify a branch (size/kind/origin follow from them). */
export interface FramePosition {
  readonly iteration: number;
  readonly index: number;
}

/** The characters of an invocation name (`isInvocationName`). */
const INVOCATION_NAME_LENGTH = 43;

/** The first table format whose invocation names begin with the workflow's tag: formats 1 and 2 named an invocation by its digest alone. */
export const TAGGED_NAMES_FORMAT = 3;

/** Whether runtimes writing table formats `a` and `b` name a run's invocations alike, so that one finds the checkpoints the other wrote (a redrive onto another deployment). */
export const sameInvocationNames = (a: number, b: number): boolean => (a >= TAGGED_NAMES_FORMAT) === (b >= TAGGED_NAMES_FORMAT);

/**
 * The invocation's name. `format`: the table format of the runtime that runs
 * the run (a reader of a run started by an older one names its invocations
 * as that runtime did).
 */
export function invocationName(
  run: RunRef,
  node: string,
  iteration: number,
  frames: readonly FramePosition[],
  foldIndex?: number,
  format: number = TABLE_FORMAT,
): string {
  const parts = [run.workflow, run.workflowId, node, iteration, frames.map((f) => [f.iteration, f.index]), foldIndex ?? null];
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  return format < TAGGED_NAMES_FORMAT ? digest : workflowTag(run.workflow) + digest.slice(0, INVOCATION_NAME_LENGTH - WORKFLOW_TAG_LENGTH);
}

/** The name of a run's timeout schedule: one per run, so the entry's retries create it once. */
/**
 * The schedule of a run's timeout: named after the run, so a retried start
 * creates nothing new; a redrive's after the redrive and its deadline, as a
 * redriven run's timeout counts from the redrive (the run's first schedule may
 * still be pending, and the timeout event ends the run only at the deadline it carries).
 */
export const runTimeoutName = (run: RunRef, redrive?: { readonly redrives: number; readonly deadline: number }): string =>
  createHash('sha256').update(JSON.stringify([run.workflow, run.workflowId, 'timeout', ...(redrive ? [redrive.redrives, redrive.deadline] : [])])).digest('base64url');

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
