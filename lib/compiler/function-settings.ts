/**
 * Defaults and limits of the Lambda function behind a node, written once: the
 * compiler applies and checks them, the construct deploys what the compiler
 * resolved, and the local engine falls back to Lambda's async-invoke defaults
 * where a template has no EventInvokeConfig, as Lambda does.
 */

/** The export a Task or Fold runs when its props name none. */
export const DEFAULT_EXPORT = 'handler';

/** Memory in MB: Lambda's range, and a node's default. */
export const MEMORY_MB = { min: 128, max: 10240, default: 256 } as const;

/**
 * Seconds the construct adds to a node's `timeoutSeconds` for its Lambda
 * function's timeout: the handler gets exactly `timeoutSeconds` (as Step
 * Functions' TimeoutSeconds) and the runtime keeps this margin for reading its
 * inputs before it and committing and invoking successors after it.
 */
export const FUNCTION_TIMEOUT_MARGIN_SECONDS = 10;

/** A handler's timeout in seconds (Step Functions' TimeoutSeconds): up to Lambda's 900 s less the margin, and a node's default. */
export const TIMEOUT_SECONDS = { min: 1, max: 900 - FUNCTION_TIMEOUT_MARGIN_SECONDS, default: 30 } as const;

/** The Lambda function timeout of a node whose handler may run `timeoutSeconds`. */
export const functionTimeoutSeconds = (timeoutSeconds: number): number => timeoutSeconds + FUNCTION_TIMEOUT_MARGIN_SECONDS;

/** How often Lambda retries a failed asynchronous invocation; without an EventInvokeConfig it retries twice. */
export const RETRY_ATTEMPTS = { min: 0, max: 2, default: 2 } as const;

/** How long Lambda keeps an asynchronous event before dropping it, seconds; without an EventInvokeConfig, 6 hours. */
export const MAX_EVENT_AGE_SECONDS = { min: 60, max: 21600, default: 21600 } as const;

/** Lambda's async-invoke settings of one node's function. */
export interface AsyncSettings {
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
}

/** A node's own value wins over the workflow's, which wins over Lambda's default. */
export function resolveAsyncSettings(node: Partial<AsyncSettings>, workflow: Partial<AsyncSettings>): AsyncSettings {
  return {
    retryAttempts: node.retryAttempts ?? workflow.retryAttempts ?? RETRY_ATTEMPTS.default,
    maxEventAgeSeconds: node.maxEventAgeSeconds ?? workflow.maxEventAgeSeconds ?? MAX_EVENT_AGE_SECONDS.default,
  };
}

/** Why Lambda would reject these async settings, or undefined when it accepts them. */
export function asyncSettingsProblem(settings: AsyncSettings): string | undefined {
  const { retryAttempts, maxEventAgeSeconds } = settings;
  if (!inRange(retryAttempts, RETRY_ATTEMPTS)) {
    return `retryAttempts must be an integer from ${RETRY_ATTEMPTS.min} to ${RETRY_ATTEMPTS.max} (Lambda's async retry limit), got ${retryAttempts}`;
  }
  if (!inRange(maxEventAgeSeconds, MAX_EVENT_AGE_SECONDS)) {
    return `maxEventAge must be a whole number of seconds from ${MAX_EVENT_AGE_SECONDS.min} to ${MAX_EVENT_AGE_SECONDS.max}, got ${maxEventAgeSeconds}`;
  }
  return undefined;
}

/** An integer within Lambda's range for the setting. */
export function inRange(value: number, range: { readonly min: number; readonly max: number }): boolean {
  return Number.isInteger(value) && value >= range.min && value <= range.max;
}
