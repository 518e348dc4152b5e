import { createHash } from 'crypto';

/** Lambda's limit on function names. */
export const MAX_FUNCTION_NAME_LENGTH = 64;

const VALID_NAME = /^[A-Za-z0-9_-]+$/;

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
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  const readable = full.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, MAX_FUNCTION_NAME_LENGTH - hash.length - 1);
  return `${readable}-${hash}`;
}
