/** What the construct ships beside each bundle: the environment variables, the IR file and the failure recorder's spec. */
import type { NodeSettings } from './node';

/** Environment variables the construct sets on every workflow function. */
export const ENV = {
  table: 'UNUM_TABLE',
  /** Failure recorder: the workflow's name (its run records are keyed with it). */
  workflow: 'UNUM_WORKFLOW',
  /** Optional override of the IR file path (default: `unum-ir.json` beside the bundle). */
  irFile: 'UNUM_IR_FILE',
  /** Failure recorder: the entry node, to which a failed event without an envelope was addressed. */
  entryNode: 'UNUM_ENTRY_NODE',
  /** Failure recorder: optional SQS queue URL to forward failure records to. */
  failureQueueUrl: 'UNUM_FAILURE_QUEUE_URL',
  /** Failure recorder: optional SNS topic ARN to forward failure records to. */
  failureTopicArn: 'UNUM_FAILURE_TOPIC_ARN',
  /** Failure recorder: the run retention in seconds, the TTL of the records it writes. */
  runRetention: 'UNUM_RUN_RETENTION',
  /** Failure recorder: `true` when the workflow keeps a run history. */
  history: 'UNUM_HISTORY',
  /** Functions before a Wait: the EventBridge Scheduler group their wake-up schedules go to. */
  scheduleGroup: 'UNUM_SCHEDULE_GROUP',
  /** Functions before a Wait: the role Scheduler assumes to invoke the function after it. */
  schedulerRoleArn: 'UNUM_SCHEDULER_ROLE_ARN',
  /** Functions before a Wait: `arn:<partition>:lambda:<region>:<account>:function:`, which a schedule's target ARN starts with. */
  functionArnPrefix: 'UNUM_FUNCTION_ARN_PREFIX',
  /** The task-response function: the functions of the workflow's callback Tasks, by node (JSON). */
  taskFunctions: 'UNUM_TASK_FUNCTIONS',
  /** The entry of a workflow with a `timeout`: the function its run-timeout schedules invoke (the failure recorder). */
  runTimeoutFunction: 'UNUM_RUN_TIMEOUT_FUNCTION',
  /** The failure recorder, the task-response function and the sweeper: the deployment they belong to (`DEPLOYMENT_ID_PATTERN`). */
  deployment: 'UNUM_DEPLOYMENT',
} as const;

/**
 * A deployment id: `d` and 20 hex digits of a hash of everything a run
 * depends on (every node's IR, every function's code and settings, the
 * runtime). Each function of a workflow has an alias of this name on the
 * version published for the deployment, and every invocation a run makes
 * names that alias (docs/architecture.md "Deployments").
 */
export const DEPLOYMENT_ID_PATTERN = /^d[0-9a-f]{20}$/;

/**
 * The entry function's alias that starts runs (client, CLI, `grantStart`):
 * moved to a new deployment's version only after all of that deployment's
 * functions and aliases exist, so a new run never meets a half-deployed workflow.
 */
export const LIVE_ALIAS = 'live';

/** A function name with its qualifier, as the Invoke API takes it (`name:alias`). */
export const qualifiedName = (functionName: string, qualifier: string): string => `${functionName}:${qualifier}`;

/** The IR file name inside each function's asset. */
export const IR_FILE_NAME = 'unum-ir.json';

/** The failure recorder's spec file inside its asset. */
export const RECORDER_FILE_NAME = 'unum-recorder.json';

/** What the failure recorder knows of a node (it has no IR): the state it runs, and the state an unhandled failure of it fails. */
export interface RecorderNode {
  /** The state the node runs, where it differs from the node's name (IR `state`). */
  readonly state?: string;
  /**
   * The join of the innermost Parallel/Map around the node, when the node has
   * `stateErrors`: a failure Lambda gave up on fails that state, not the run.
   */
  readonly stateJoin?: string;
}

/**
 * The failure recorder's spec (`unum-recorder.json`), written by the
 * construct from the compiled nodes: per node what it runs and which state it
 * fails, and the function names of those states' joins (qualified with the deployment), which it invokes.
 */
export interface RecorderSpec {
  /** The deployment this recorder belongs to; `functionNames` are qualified with it. */
  readonly deployment: string;
  readonly nodes: Readonly<Record<string, RecorderNode>>;
  readonly functionNames: Readonly<Record<string, string>>;
  /** The workflow's retention settings: a failure the recorder records is parked for a redrive until they say (absent: not parked). */
  readonly retention?: Readonly<Pick<NodeSettings, 'checkpointTtlSeconds' | 'handoffSeconds'>>;
}

/** CloudWatch EMF namespace and metric names emitted by the runtime. */
