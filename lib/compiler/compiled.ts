import type { NodeIR } from '../../runtime/ir';

/**
 * Seconds the construct adds to a node's `timeoutSeconds` for its Lambda
 * function's timeout: the handler gets exactly `timeoutSeconds` (as Step
 * Functions' TimeoutSeconds) and the runtime keeps this margin for reading its
 * inputs before it and committing and invoking successors after it.
 */
export const FUNCTION_TIMEOUT_MARGIN_SECONDS = 10;

/** The longest `timeoutSeconds`: Lambda's 900 s limit minus the margin. */
export const MAX_TIMEOUT_SECONDS = 900 - FUNCTION_TIMEOUT_MARGIN_SECONDS;

/** A node's Lambda function timeout in seconds. */
export const functionTimeoutSeconds = (fn: FunctionSpec): number => fn.timeoutSeconds + FUNCTION_TIMEOUT_MARGIN_SECONDS;

/**
 * Deployment settings of one node's function, as given in the definition
 * (plain numbers: lib/definition and lib/compiler do not import aws-cdk-lib).
 */
export interface FunctionSpec {
  /** Absolute path of the handler module; undefined for nodes with no user code (pass / implicit nodes). */
  readonly entry?: string;
  /** Export name used by the node (also in `ir.handler`). */
  readonly exportName?: string;
  /** @default 256 */
  readonly memorySize: number;
  /** The handler's timeout in seconds (the function's is `functionTimeoutSeconds`). @default 30 */
  readonly timeoutSeconds: number;
  readonly environment: Readonly<Record<string, string>>;
  /** Lambda async retries, 0-2; undefined when the node sets none (the workflow's setting applies). */
  readonly retryAttempts?: number;
  /** Seconds, 60-21600; undefined when the node sets none (the workflow's setting applies). */
  readonly maxEventAgeSeconds?: number;
}

export interface CompiledNode {
  readonly ir: NodeIR;
  readonly fn: FunctionSpec;
  /** Nodes this node may invoke (IR targets, joins after fan-in, catch handlers, itself for loops/folds), sorted. */
  readonly successors: readonly string[];
  /** True for nodes the compiler added (implicit origin/join pass nodes). */
  readonly implicit: boolean;
}

export interface CompiledWorkflow {
  readonly workflow: string;
  /** Name of the entry node. */
  readonly entry: string;
  /** Nodes in a deterministic order (definition order, implicit nodes after their neighbours). */
  readonly nodes: Readonly<Record<string, CompiledNode>>;
  /** Non-fatal findings (e.g. a Choice with no otherwise whose conditions may all fail). */
  readonly warnings: readonly string[];
}

/** Workflow-wide settings the construct passes to the compiler. */
export interface CompileOptions {
  /** @default 32768 */
  readonly inlineLimitBytes?: number;
  /** @default 64 */
  readonly invokeConcurrency?: number;
  /** @default 7 days */
  readonly checkpointTtlSeconds?: number;
  /** @default 30 days */
  readonly runRetentionSeconds?: number;
  /**
   * Keep an append-only transition log per run (`settings.history` in every
   * node's IR, set only when true so the IR is otherwise unchanged).
   * @default false
   */
  readonly history?: boolean;
}
