import { UnumDefinitionError, WORKFLOW_LEVEL } from '../compiler/errors';

export { WORKFLOW_LEVEL };

/**
 * An ASL document the importer rejects. It is an `UnumDefinitionError` whose
 * `node` is the ASL state name (not the sanitized node name) and whose `field`
 * is the ASL field, so that users read errors in the terms of their own file.
 */
export class AslDefinitionError extends UnumDefinitionError {
  constructor(workflow: string, state: string, field: string, detail: string) {
    super(workflow, state, field, detail);
    this.name = 'AslDefinitionError';
  }
}

/** One finding of asl-validator, as it reported it. */
export interface AslValidatorFinding {
  readonly code: string;
  readonly message: string;
  /** JSON pointer of the offending value, when the finding is a schema error. */
  readonly instancePath?: string;
}

/** asl-validator rejected the document; every finding is kept, and the message lists them all. */
export class AslValidationError extends AslDefinitionError {
  constructor(workflow: string, state: string, field: string, readonly findings: readonly AslValidatorFinding[]) {
    super(workflow, state, field, `the document is not valid ASL (asl-validator): ${findings.map((f) => `[${f.code}] ${f.message}`).join('; ')}`);
    this.name = 'AslValidationError';
  }
}

/**
 * Where a problem is found while reading the document: the workflow name for
 * messages, bound once, so each reader only names the state and field.
 */
export class Reporter {
  constructor(readonly workflow: string) {}

  fail(state: string, field: string, detail: string): never {
    throw new AslDefinitionError(this.workflow, state, field, detail);
  }
}
