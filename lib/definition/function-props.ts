/**
 * Deployment settings of a function node (Task or Fold). Durations are plain
 * seconds: lib/definition does not depend on aws-cdk-lib.
 */
export interface FunctionProps {
  /** Absolute path of the handler module, e.g. `path.join(__dirname, 'handlers.ts')`. */
  readonly entry: string;
  /** Name of the exported handler function. @default 'handler' */
  readonly handler?: string;
  /** Lambda memory in MB, 128-10240. @default 256 */
  readonly memorySize?: number;
  /**
   * The handler's timeout in seconds, 1-890 (Step Functions' TimeoutSeconds):
   * a handler still running after it fails with `States.Timeout`. The Lambda
   * function gets 10 s more, for the runtime's work before and after the
   * handler (reading inputs, the checkpoint, invoking successors). After a
   * retry, an attempt gets at most what is left of the function's time.
   * @default 30
   */
  readonly timeoutSeconds?: number;
  /** Environment variables of the function. @default {} */
  readonly environment?: Readonly<Record<string, string>>;
  /** Lambda asynchronous retries of a failed invocation, 0-2. @default 2 */
  readonly retryAttempts?: number;
  /** Maximum age of an asynchronous event in seconds, 60-21600. @default 21600 */
  readonly maxEventAgeSeconds?: number;
  /**
   * What the handler's effects (`unum-cdk/effects`) write: the construct
   * grants this node's function the writes the effects make (PutItem,
   * UpdateItem, DeleteItem, ConditionCheckItem) on exactly these tables, and
   * nothing else beyond the workflow's own table; grant your handler's own
   * reads of them yourself.
   * @default no tables
   */
  readonly effects?: FunctionEffects;
}

/**
 * A DynamoDB table an effect writes: an `aws-dynamodb` `ITable` (written
 * structurally: lib/definition does not depend on aws-cdk-lib).
 */
export interface EffectsTable {
  readonly tableName: string;
  grantReadWriteData(grantee: never): unknown;
}

/** The resources a function's effects use. */
export interface FunctionEffects {
  /** DynamoDB tables written through `effects(unum).dynamodb` (TransactWriteItems, UpdateItem). @default [] */
  readonly tables?: readonly EffectsTable[];
}

/** Step Functions-style retry of the handler inside one execution. */
export interface RetryProps {
  /** Error names to retry (`error.name`, `States.ALL`, `States.TaskFailed`, `States.Timeout`). @default ['States.ALL'] */
  readonly errors?: readonly string[];
  /** Retries after the first attempt, >= 0. @default 3 */
  readonly maxAttempts?: number;
  /** Seconds before the first retry, >= 1. @default 1 */
  readonly intervalSeconds?: number;
  /** Multiplier of the delay after each retry, >= 1. @default 2 */
  readonly backoffRate?: number;
  /** Upper bound of the delay in seconds, >= 1. @default no bound */
  readonly maxDelaySeconds?: number;
  /** @default 'NONE' */
  readonly jitter?: 'FULL' | 'NONE';
}

/** Routes a handler error to another state with `{ Error, Cause }` as input. */
export interface CatchProps {
  /** Error names to catch. @default ['States.ALL'] */
  readonly errors?: readonly string[];
  /** Where the error info goes in the state input; `null` discards it. @default '$' (replaces the input) */
  readonly resultPath?: string | null;
}
