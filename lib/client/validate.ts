/**
 * Checks of what a caller passes to the client. TypeScript callers cannot pass
 * a wrong shape, but JavaScript callers can: a missing `workflow` would read
 * the key `run#undefined#<id>`, which never appears, and a wait would run out
 * its whole timeout. Each check names the method and the field.
 */
import { WORKFLOW_ID_PATTERN } from '../../runtime/contract/ir';
import { UnumClientError } from './errors';

/** Workflow names go into table keys between `#` separators. */
const WORKFLOW_NAME = /^[A-Za-z0-9_.-]{1,80}$/;

const shown = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : value === null ? 'null' : typeof value);

/** A required non-empty string; `what` says what it is, for the message. */
export function requireString(where: string, field: string, value: unknown, what: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw new UnumClientError(`${where}: ${field} ${value === undefined ? 'is missing' : `must be a non-empty string, got ${shown(value)}`} (${what})`);
}

/** An optional non-empty string: absent is fine, empty or another type is not. */
export function optionalString(where: string, field: string, value: unknown, what: string): string | undefined {
  return value === undefined ? undefined : requireString(where, field, value, what);
}

/** A workflow name, as the construct's `workflowName`. */
export function requireWorkflowName(where: string, field: string, value: unknown): string {
  const name = requireString(where, field, value, "the workflow's name (workflowName)");
  if (!WORKFLOW_NAME.test(name)) throw new UnumClientError(`${where}: ${field} '${name}' is not a workflow name (${WORKFLOW_NAME})`);
  return name;
}

/** A run id given to a method that reads or changes a run. */
export function requireWorkflowId(where: string, value: unknown): string {
  const id = requireString(where, 'workflowId', value, 'the id of a run');
  if (!WORKFLOW_ID_PATTERN.test(id)) throw new UnumClientError(`${where}: invalid workflow id '${id}': expected ${WORKFLOW_ID_PATTERN}`);
  return id;
}

/** An SDK client given in the props: an object with `send`, or absent. */
export function optionalSdkClient(where: string, field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || typeof (value as { send?: unknown }).send !== 'function') {
    throw new UnumClientError(`${where}: ${field} must be an AWS SDK v3 client (with a send method), got ${shown(value)}`);
  }
}

/** A plain object of string values, such as a stack's outputs. */
export function requireRecord(where: string, field: string, value: unknown, what: string): Readonly<Record<string, string>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnumClientError(`${where}: ${field} ${value === undefined ? 'is missing' : `must be an object, got ${Array.isArray(value) ? 'an array' : shown(value)}`} (${what})`);
  }
  return value as Record<string, string>;
}
