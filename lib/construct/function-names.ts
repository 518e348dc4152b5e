import { createHash } from 'crypto';

/** Lambda's limit on function names. */
export const MAX_FUNCTION_NAME_LENGTH = 64;

const VALID_NAME = /^[A-Za-z0-9_-]+$/;

/** `-` and 8 hex digits of a hash, which end a shortened name. */
const HASH_SUFFIX_LENGTH = 9;

/**
 * Deterministic physical function name `<stack>-<workflow>-<node>`.
 *
 * Known before deployment, so a function's IR and IAM policy can name its
 * successors without a `Ref`/`GetAtt` to them: that is what lets a loop
 * (A -> B -> A) synthesize with no CloudFormation circular dependency.
 * Names that are too long or contain characters Lambda rejects are cut and
 * suffixed with a hash of the full name, so they stay unique and stable.
 */
export function physicalFunctionName(stackName: string, workflow: string, node: string): string {
  const full = `${stackName}-${workflow}-${node}`;
  if (full.length <= MAX_FUNCTION_NAME_LENGTH && VALID_NAME.test(full)) {
    return full;
  }
  const hash = createHash('sha256').update(full).digest('hex').slice(0, HASH_SUFFIX_LENGTH - 1);
  const readable = full.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, MAX_FUNCTION_NAME_LENGTH - HASH_SUFFIX_LENGTH);
  return `${readable}-${hash}`;
}

/**
 * What every `physicalFunctionName` of the workflow starts with, also when a
 * name is shortened: the sweeper's rights on the workflow's functions are
 * scoped by it, because it deletes functions of nodes a later deployment removed.
 */
export function workflowFunctionPrefix(stackName: string, workflow: string): string {
  return `${stackName}-${workflow}-`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, MAX_FUNCTION_NAME_LENGTH - HASH_SUFFIX_LENGTH);
}
