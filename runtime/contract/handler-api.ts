/**
 * What a user's handler receives besides its input: Lambda's context (the part
 * the runtime reads) and the unum context (docs/architecture.md "Effects").
 * The DSL's handler types (lib/definition) and the runtime share these shapes.
 */

/** The part of Lambda's context object the runtime uses. */
export interface LambdaContext {
  readonly awsRequestId: string;
  readonly functionName?: string;
  getRemainingTimeInMillis?(): number;
}

/**
 * What a handler learns about its invocation. Every execution of one
 * invocation (a Lambda retry, a duplicate delivery, a retry rule's next
 * attempt) sees the same values.
 */
export interface UnumContext {
  /** The workflow's name. */
  readonly workflow: string;
  /** The run id (`workflowId`). */
  readonly runId: string;
  /** The node (state) this handler runs for. */
  readonly node: string;
  /** The invocation name: the run, node, loop iteration and fan-out position, hashed (43 characters). */
  readonly invocation: string;
  /**
   * A key for an external service's idempotency (e.g. a payment API's
   * `Idempotency-Key`): the same for every execution of this invocation,
   * different for every other invocation, run, workflow and deployment
   * (it hashes the function name too). 43 base64url characters.
   */
  readonly idempotencyKey: string;
  /**
   * A callback Task's token (`WAIT_FOR_TASK_TOKEN`): hand it to whoever
   * completes the task (`sendTaskSuccess` / `sendTaskFailure`). The same for
   * every execution of this invocation. Absent on other Tasks.
   */
  readonly taskToken?: string;
}
