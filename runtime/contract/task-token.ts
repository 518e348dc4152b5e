/**
 * Task tokens of callback Tasks (docs/architecture.md "Callbacks"): the run,
 * node and invocation that waits, which the completion needs to find it, and
 * 256 random bits that only the waiting invocation's record holds. A token is
 * parsed field by field (never evaluated), and is valid only while a waiting
 * record with the same secret exists.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { WORKFLOW_ID_PATTERN } from './ir';
import { isInvocationName } from './table';

export interface TaskToken {
  readonly workflow: string;
  readonly workflowId: string;
  readonly node: string;
  readonly invocation: string;
  readonly secret: string;
}

const PREFIX = 'u1.';
/** Step Functions' bound on a task token. */
const MAX_TOKEN_LENGTH = 1024;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
/** The compiler's node names (runtime/entry/envelope.ts); workflow names take the same characters. */
const NAME = /^[A-Za-z0-9_.-]{1,80}$/;

export const newTaskSecret = (): string => randomBytes(32).toString('base64url');

export const encodeTaskToken = (t: TaskToken): string =>
  PREFIX + Buffer.from(JSON.stringify([t.workflow, t.workflowId, t.node, t.invocation, t.secret])).toString('base64url');

/** The token's parts, or why it is not a task token. */
export function decodeTaskToken(token: unknown): TaskToken | string {
  if (typeof token !== 'string' || !token.startsWith(PREFIX) || token.length > MAX_TOKEN_LENGTH) return 'not a unum task token';
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return 'the task token does not decode';
  }
  if (!Array.isArray(parts) || parts.length !== 5 || !parts.every((p) => typeof p === 'string')) return 'the task token does not decode';
  const [workflow, workflowId, node, invocation, secret] = parts as string[];
  const ok = NAME.test(workflow) && WORKFLOW_ID_PATTERN.test(workflowId) && NAME.test(node) && isInvocationName(invocation) && SECRET.test(secret);
  return ok ? { workflow, workflowId, node, invocation, secret } : 'the task token has a malformed part';
}

/** Constant-time comparison of a token's secret with the one recorded. */
export const sameSecret = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a caller sends the task-response function: `{ token }` and exactly one of `success` (the output), `failure` ({ error, cause }), `heartbeat: true`. */
export type TaskResponseRequest = { readonly token: string } & ({ readonly success: unknown } | { readonly failure: { readonly error: string; readonly cause: string } } | { readonly heartbeat: true });
