import { UnumError } from '../../runtime/contract/errors';

/** Name used in messages for problems that concern the whole workflow rather than one node. */
export const WORKFLOW_LEVEL = '(workflow)';

/** Formats a finding the same way for errors and warnings. */
export function describe(workflow: string, node: string, field: string, detail: string): string {
  return `Workflow '${workflow}', node '${node}', field '${field}': ${detail}`;
}

/** A definition the compiler rejects; the message names the workflow, the node and the field. */
export class UnumDefinitionError extends UnumError {
  constructor(
    readonly workflow: string,
    readonly node: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(describe(workflow, node, field, detail));
  }
}
