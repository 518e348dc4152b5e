import type { NodeIR } from '../../runtime/contract/ir';
import type { EffectsTable } from '../definition/function-props';
import type { AsyncSettings } from './function-settings';

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
  /** The handler's timeout in seconds (the function's: `functionTimeoutSeconds` in function-settings.ts). @default 30 */
  readonly timeoutSeconds: number;
  readonly environment: Readonly<Record<string, string>>;
  /** Lambda async retries, 0-2; undefined when the node sets none (the workflow's setting applies). */
  readonly retryAttempts?: number;
  /** Seconds, 60-21600; undefined when the node sets none (the workflow's setting applies). */
  readonly maxEventAgeSeconds?: number;
  /** Tables the handler's effects write (granted to the function by the construct); absent when none. */
  readonly effectsTables?: readonly EffectsTable[];
}

export interface CompiledNode {
  readonly ir: NodeIR;
  readonly fn: FunctionSpec;
  /** Nodes this node may invoke (IR targets, joins after fan-in, catch handlers, itself for loops/folds), sorted. */
  readonly successors: readonly string[];
  /** The successors it invokes after a Wait, by a one-time schedule (also in `successors`: a wait already due is a direct invoke). */
  readonly waitTargets: readonly string[];
  /** Lambda's async-invoke settings of the node's function: its own, else the workflow's (`CompileOptions`), else Lambda's defaults. */
  readonly async: AsyncSettings;
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
  /**
   * True when a run may invoke a node's function again from that function's
   * own chain of invocations, i.e. the nodes' successors have a cycle: a loop
   * (a transition back to an earlier state), a Fold (each step invokes the
   * next), a bounded Map (each item's tail launches the next of its slot), a
   * retried Parallel/Map (its join starts the state again), any Map (a
   * launcher of its launch tree, its item processor's start, launches further launchers).
   */
  readonly loops: boolean;
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
  /**
   * Lambda async retries of every node that sets none (`retryAttempts` of a
   * Task or Fold wins). Checked against Lambda's limits where it is deployed
   * (`asyncSettingsProblem`), which names the node.
   * @default 2 (Lambda's default)
   */
  readonly retryAttempts?: number;
  /**
   * Maximum event age, seconds, of every node that sets none.
   * Checked where it is deployed, like `retryAttempts`.
   * @default 21600 (Lambda's default)
   */
  readonly maxEventAgeSeconds?: number;
  /**
   * The most invokes one execution sends to launch a Map's items; a Map
   * launching more at once goes through a launch tree (`settings.launchWidth`,
   * set only when given so the IR is otherwise unchanged). An integer in
   * 2-262144.
   * @default 128 (`DEFAULT_LAUNCH_WIDTH`)
   */
  readonly mapLaunchWidth?: number;
  /**
   * The run's timeout in seconds (Step Functions' top-level TimeoutSeconds):
   * a run still running this long after its start is TIMED_OUT. A whole
   * number from 1 to one year; overrides the definition's (an ASL document's).
   * @default the definition's, else none
   */
  readonly runTimeoutSeconds?: number;
}
