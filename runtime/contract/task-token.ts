/**
 * Task tokens of callback Tasks (docs/architecture.md "Callbacks"): the run,
 * node and invocation that waits, which the completion needs to find it, the
 * deployment the run runs on, to which the answer is routed, and 256 random bits that only the waiting invocation's record holds. A token is
 * parsed field by field (never evaluated), and is valid only while a waiting
 * record with the same secret exists.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DEPLOYMENT_ID_PATTERN, WORKFLOW_ID_PATTERN } from './ir';
import { isInvocationName } from './table';

export interface TaskToken {
  readonly workflow: string;
  readonly workflowId: string;
  readonly node: string;
  readonly invocation: string;
  readonly secret: string;
  /** The deployment of the waiting run (empty for an IR that was compiled, not deployed). */
  readonly deployment: string;
}

/** Format 2 added the deployment; format 1 (`u1.`) tokens came from an unum-cdk before deployments were pinned. */
const PREFIX = 'u2.';
const FORMAT_1_PREFIX = 'u1.';
/** Step Functions' bound on a task token. */
const MAX_TOKEN_LENGTH = 1024;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
/** The compiler's node names (runtime/entry/envelope.ts); workflow names take the same characters. */
const NAME = /^[A-Za-z0-9_.-]{1,80}$/;

export const newTaskSecret = (): string => randomBytes(32).toString('base64url');

export const encodeTaskToken = (t: TaskToken): string =>
  PREFIX + Buffer.from(JSON.stringify([t.workflow, t.workflowId, t.node, t.invocation, t.secret, t.deployment])).toString('base64url');

/** The token's parts, or why it is not a task token. */
export function decodeTaskToken(token: unknown): TaskToken | string {
  if (typeof token === 'string' && token.startsWith(FORMAT_1_PREFIX)) {
    return 'a task token of format 1, issued by an unum-cdk before deployments were pinned: it names no deployment to route the answer to, and this version reads format 2';
  }
  if (typeof token !== 'string' || !token.startsWith(PREFIX) || token.length > MAX_TOKEN_LENGTH) return 'not a unum task token';
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return 'the task token does not decode';
  }
  if (!Array.isArray(parts) || parts.length !== 6 || !parts.every((p) => typeof p === 'string')) return 'the task token does not decode';
  const [workflow, workflowId, node, invocation, secret, deployment] = parts as string[];
  const ok = NAME.test(workflow) && WORKFLOW_ID_PATTERN.test(workflowId) && NAME.test(node) && isInvocationName(invocation) && SECRET.test(secret) && (deployment === '' || DEPLOYMENT_ID_PATTERN.test(deployment));
  return ok ? { workflow, workflowId, node, invocation, secret, deployment } : 'the task token has a malformed part';
}

/** Why a function of deployment `own` does not answer a token of deployment `token`: the answer goes to the token's deployment, so this one was misrouted. */
export const otherDeployment = (token: string, own: string): string =>
  `the task token is of deployment ${token || '(none)'}, and this function is of deployment ${own || '(none)'}: an answer goes to the task-response function of the token's deployment`;

/** Constant-time comparison of a token's secret with the one recorded. */
export const sameSecret = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a caller sends the task-response function: `{ token }` and exactly one of `success` (the output), `failure` ({ error, cause }), `heartbeat: true`. */
export type TaskResponseRequest = { readonly token: string } & ({ readonly success: unknown } | { readonly failure: { readonly error: string; readonly cause: string } } | { readonly heartbeat: true });
