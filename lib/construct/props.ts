import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { FromAslOptions } from '../asl/types';
import type { WorkflowDefinition } from './definition-type';

/** How each node's code is bundled (always the local esbuild, never Docker). */
export interface UnumBundlingOptions {
  /**
   * Minify the bundle.
   * @default true
   */
  readonly minify?: boolean;
  /**
   * Emit a source map beside the bundle (`index.js.map`: mappings and names,
   * without the sources' text) and set `NODE_OPTIONS=--enable-source-maps`, so
   * stack traces name the TypeScript sources and lines instead of positions in
   * the minified `index.js`. Costs about 110 KB (35 KB zipped) per function,
   * a few milliseconds of cold start and, once per instance, about 20 ms for
   * the first stack trace formatted (figure 6 of BENCHMARKS.md).
   * @default true
   */
  readonly sourceMap?: boolean;
  /**
   * Bundle the AWS SDK v3 (`@aws-sdk/*`) instead of using the copy the Lambda
   * Node.js runtime provides. Pins the SDK version at the cost of ~0.5 MB per function.
   * @default false
   */
  readonly bundleAwsSdk?: boolean;
}

/** Properties of an {@link UnumWorkflow}. */
export interface UnumWorkflowProps {
  /** The workflow: the first state of a chain built with lib/definition (`Task`, `Parallel`, `Map`, ...). */
  readonly definition: WorkflowDefinition;
  /**
   * Name of the workflow: part of every function name, the `Workflow` metric
   * dimension and the IR.
   * @default - the construct id
   */
  readonly workflowName?: string;
  /**
   * An existing table to hold checkpoints, fan-in state and run records. It
   * must have a string partition key `pk` and TTL on the attribute `ttl`,
   * and, for `listRuns`, a global secondary index `runs` with string keys
   * `runs` (partition) and `runsSk` (sort) projecting `status`, `startedAt`,
   * `finishedAt` and `error` (docs/architecture.md "Table").
   * When given, `encryptionKey` and `pointInTimeRecovery` must not be.
   * @default - a new table
   */
  readonly table?: ITable;
  /**
   * What happens to the table the construct creates, to the log group and to
   * the dead-letter queue, when they are removed from the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Customer-managed KMS key to encrypt the table with.
   * @default - encryption with an AWS-owned key
   */
  readonly encryptionKey?: IKey;
  /**
   * Enable point-in-time recovery on the table. Its items are short-lived
   * coordination state (TTL-bound), so recovery is rarely useful; enable it
   * when run records must survive an accidental overwrite.
   * @default false
   */
  readonly pointInTimeRecovery?: boolean;
  /**
   * Lambda async retries of a failed invocation (0-2), for nodes that do not
   * set their own `retryAttempts`. Retries are safe: every execution is idempotent.
   * @default 2
   */
  readonly retryAttempts?: number;
  /**
   * How long Lambda keeps retrying an event (1 minute - 6 hours), for nodes
   * that do not set their own `maxEventAgeSeconds`.
   * @default Duration.hours(6)
   */
  readonly maxEventAge?: Duration;
  /**
   * How long checkpoints and fan-in shards live (DynamoDB TTL) from their write.
   * Must be at least the longest max event age plus the longest function
   * timeout of the workflow's nodes, so a late duplicate delivery still finds
   * its checkpoint and an input outlives the wait for its reader; shorter
   * settings are rejected at synth. What a run reads again later (fan-in
   * state, branch outputs, fold items, the run record) is kept as long as the
   * run lasts: the run renews it when less than twice that bound is left,
   * about one write per kept item per `checkpointRetention` of run time
   * (docs/architecture.md, "Retention").
   * @default Duration.days(7)
   */
  readonly checkpointRetention?: Duration;
  /**
   * How long run records (status, result) live after the run ends; a running
   * run's record is kept while it runs. At least `checkpointRetention`
   * (rejected at synth otherwise): a start repeated after the record expired
   * must not find the run's checkpoints.
   * @default Duration.days(30)
   */
  readonly runRetention?: Duration;
  /**
   * The longest a run may take (Step Functions' `timeout`, ASL top-level
   * `TimeoutSeconds`, which this overrides): a run still RUNNING this long
   * after its start becomes TIMED_OUT (`States.Timeout`) and its executions
   * stop at their next transition. The entry schedules the deadline with
   * EventBridge Scheduler (one scheduled invocation of the failure recorder
   * per run, $1.00 per million) and every execution checks it when it reads
   * the run record. From 1 second to 1 year.
   * @default - the definition's (an ASL document's TimeoutSeconds), else none
   */
  readonly timeout?: Duration;
  /**
   * Keep an append-only log of every run's transitions in the table (which
   * node committed, caught or failed, when, what it invoked), read by
   * `UnumClient.inspect` / `unum inspect` and kept as long as the run record
   * (`runRetention`). Format: docs/deploying-and-operating.md, "Run history: the item format".
   *
   * Cost: about 2 write units per transition (a counter update and an entry
   * put), i.e. ~$1.25 per million transitions at the on-demand price of
   * $0.625 per million write request units, plus storage of ~200 bytes per
   * entry until its TTL. One run's log takes at most ~1,000 transitions per
   * second (one counter item), so leave it off for very large maps.
   * @default false
   */
  readonly history?: boolean;
  /**
   * Values whose JSON is larger than this travel by reference to their checkpoint.
   * @default 32768
   */
  readonly inlineLimitBytes?: number;
  /**
   * Bound on concurrent invokes from one execution (map launches).
   * @default 64
   */
  readonly invokeConcurrency?: number;
  /**
   * The most invokes one execution sends to launch a Map's items. A Map that
   * launches more at once (all its items, or a bounded Map's first
   * `maxConcurrency`) launches them through a tree of launchers, invocations
   * of its item processor's first function that each launch up to this many
   * (items or further launchers; docs/architecture.md "Launch tree"): about
   * one extra invocation per this many items. An integer from 2 to 262144,
   * checked at synth.
   * @default 128
   */
  readonly mapLaunchWidth?: number;
  /**
   * Instruction set of every function.
   * @default Architecture.ARM_64
   */
  readonly architecture?: Architecture;
  /**
   * Node.js runtime of every function.
   * @default Runtime.NODEJS_24_X
   */
  readonly runtime?: Runtime;
  /**
   * Bundling options.
   * @default - minified, with a source map, AWS SDK external
   */
  readonly bundling?: UnumBundlingOptions;
  /**
   * Where to forward the failure record of a run that failed because an
   * invocation exhausted Lambda's async retries. The run is marked FAILED in
   * the table in any case.
   * @default - no forwarding
   */
  readonly onFailure?: IQueue | ITopic;
  /**
   * Retention of the workflow's log group (shared by all its functions).
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/** Props of `UnumWorkflow.fromAsl`: the workflow props without `definition`, plus how ASL Tasks map to functions. */
export interface UnumWorkflowFromAslProps extends Omit<UnumWorkflowProps, 'definition'> {
  /**
   * Function settings (`entry`, `handler`, memory, ...) per Task, keyed by ASL
   * state name or by resource (the `Resource` string, or the function it names).
   * @default none: every Task must be covered by `defaultTask`
   */
  readonly tasks?: FromAslOptions['tasks'];
  /**
   * Settings of Tasks that `tasks` does not cover, or a function computing them.
   * @default none: a Task that `tasks` does not cover is an error
   */
  readonly defaultTask?: FromAslOptions['defaultTask'];
}
