/**
 * Error types of the runtime. Names follow Step Functions where a user may
 * match them in retry/catch rules (`States.*`).
 */

/**
 * The base class of every error unum-cdk throws on purpose: the runtime's
 * (below) and the library's (definition, construct, client, local engine,
 * CLI). It lives here because the runtime must not import lib/, while lib/
 * may import the runtime. `name` is the concrete class's name (classes
 * bundled into a function set it as a literal: minifying renames classes).
 */
export class UnumError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A malformed event (envelope or start request), found before anything is
 * read or written. `workflowId` is the run it belongs to, when the event
 * names a valid one of this workflow: the handler records that run FAILED.
 */
export class UnumEventError extends UnumError {
  override name = 'UnumEventError';
  constructor(
    message: string,
    readonly workflowId?: string,
  ) {
    super(message);
  }
}

/** An error with a Step Functions name (`States.Runtime`, `States.Timeout`, ...). */
export class StatesError extends UnumError {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * Errors that no retry changes (bad paths, values too large to store): the
 * run is marked FAILED at once instead of burning Lambda's async retries.
 * As in Step Functions, `States.ALL` does not match them.
 */
export const TERMINAL_ERRORS: ReadonlySet<string> = new Set(['States.Runtime', 'States.DataLimitExceeded']);

export const runtimeError = (message: string): StatesError => new StatesError('States.Runtime', message);
