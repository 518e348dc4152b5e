import { UnumError } from '../../runtime/contract/errors';

/**
 * A workflow that cannot be deployed as configured. Thrown while the stack is
 * built (so `cdk synth` fails), naming the construct path, the workflow and,
 * where it applies, the node.
 */
export class UnumWorkflowError extends UnumError {
  constructor(
    readonly constructPath: string,
    readonly workflow: string,
    readonly node: string | undefined,
    detail: string,
    /** `cause`: the error behind it, e.g. the compiler's `UnumDefinitionError`. */
    options?: ErrorOptions,
  ) {
    super(`${constructPath}: workflow '${workflow}'${node === undefined ? '' : `, node '${node}'`}: ${detail}`, options);
  }
}
