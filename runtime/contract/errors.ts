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
 * names a valid one of this workflow: the handler records that run FAILED,
 * with `error` as the error's name.
 */
export class UnumEventError extends UnumError {
  override name = 'UnumEventError';
  constructor(
    message: string,
    readonly workflowId?: string,
    /** The error a FAILED run record names. @default 'UnumEventError' */
    readonly error: string = 'UnumEventError',
  ) {
    super(message);
  }
}

/**
 * A table item of a newer format than this runtime's (`TABLE_FORMAT`,
 * runtime/contract/table/encoding.ts): written by a newer unum-cdk sharing
 * the table, refused rather than misread.
 */
export class UnumFormatError extends UnumError {
  override name = 'UnumFormatError';
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

/**
 * An error that fails the Parallel/Map state around the node (IR
 * `stateErrors`), or, outside any, the run: a branch error no rule inside
 * handled, or a state failure its join did not handle. `name` is the error,
 * `cause` its Cause as a catcher receives it.
 */
export class StateFailedError extends UnumError {
  constructor(
    readonly error: string,
    readonly cause: string,
  ) {
    super(cause);
    this.name = error;
  }
}

/**
 * Step Functions' bounds on a failure (`ExecutionFailedEventDetails`): an
 * error name of at most 256 characters and a cause of at most 32,768. Every
 * error the table stores (run record, history, caught `{Error, Cause}`) is cut
 * to them, so no message, however large, can push an item past DynamoDB's
 * 400 KB and keep a run from its terminal record.
 */
export const ERROR_BOUNDS = { name: 256, cause: 32_768 } as const;

/** `text` cut to at most `max` characters (UTF-16 code units), ending in a marker that tells the original length. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `... [truncated from ${text.length} characters]`;
  let end = Math.max(0, max - marker.length);
  // Never cut a surrogate pair in half: the result must stay valid UTF-16.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}${marker}`.slice(0, max);
}

/** The error with its name and cause (and the node and state naming it, if any) within `ERROR_BOUNDS`. */
export function boundedError<E extends { readonly error: string; readonly cause?: string; readonly node?: string; readonly state?: string }>(e: E): E {
  const bounded: { error: string; cause?: string; node?: string; state?: string } = { ...e, error: truncated(e.error, ERROR_BOUNDS.name) };
  if (e.cause !== undefined) bounded.cause = truncated(e.cause, ERROR_BOUNDS.cause);
  if (e.node !== undefined) bounded.node = truncated(e.node, ERROR_BOUNDS.name);
  if (e.state !== undefined) bounded.state = truncated(e.state, ERROR_BOUNDS.name);
  return bounded as E;
}
