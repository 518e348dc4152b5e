import * as fs from 'fs';
import { Annotations, Stack, Token } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { ENV, LIVE_ALIAS, METRICS, qualifiedName, type NodeIR } from '../../runtime/contract/ir';
import { RUN_CONTROL_NAME } from '../../runtime/contract/run-control';
import { importAsl, inAslTerms, type ImportedAsl } from '../asl';
import { compileWorkflow, UnumDefinitionError } from '../compiler';
import type { CompiledNode, CompiledWorkflow } from '../compiler/compiled';
import { WORKFLOW_LEVEL } from '../compiler/errors';
import { asyncSettingsProblem, functionTimeoutSeconds } from '../compiler/function-settings';
import {
  assetCode,
  assetFiles,
  bundleNode,
  describeBuildFailure,
  moduleExports,
  resolveBundling,
  unbundledCode,
  type Bundle,
  type ResolvedBundling,
  usesJsonata,
} from './bundling';
import { grantInvokeOf, grantInvokeOfAliases, grantListRuns, grantRead, grantRecover, grantRedrive, grantStop, type GrantTargets } from './client-grants';
import { createDeadLetterQueue } from './dead-letters';
import { publishVersion } from './deployment-version';
import { deploymentId, type DeploymentFunction } from './deployment-id';
import { createWorkflowFunction, functionPlatform, type CommonFunctionOptions, type FunctionOptions } from './workflow-function';
import { UnumWorkflowError } from './errors';
import { createFailureRecorder, FAILURE_RECORDER_NAME, planFailureRecorder } from './failure-recorder';
import { physicalFunctionName, workflowFunctionPrefix } from './function-names';
import { workflowMetric } from './metrics';
import {
  allowInvoke,
  allowItems,
  createExecutionRole,
  deploymentRolePath,
  EFFECTS_TABLE_ACTIONS,
  functionArnFromName,
  retainRole,
  WORKFLOW_TABLE_ACCESS,
} from './permissions';
import type { UnumWorkflowFromAslProps, UnumWorkflowProps } from './props';
import { nodesOnCycles } from '../compiler/cycles';
import { addOutputs, workflowMetadata, type DeployedWorkflow } from './stack-outputs';
import { DeploymentSweeper, type DeploymentMember } from './sweeper';
import { createRunControl, planRunControl } from './run-control';
import { createTaskResponder, planTaskResponder, TASK_RESPONDER_NAME } from './task-responder';
import { claimTableName } from './table-claims';
import { createWorkflowTable, tableItems } from './workflow-table';
import { WaitScheduling } from './waits';
import { retentionProblem, workflowRetentionProblem } from './validation';
import { WORKFLOW_METADATA_TYPE } from '../assembly/metadata';
import type { WorkflowPartContext } from './workflow-part';

/** Stands for the sweeper (sweeper.ts) in its function name. */
const SWEEPER_NAME = 'unum-sweeper';

/** A node before its resources exist (`planNode`). */
interface NodePlan {
  readonly node: string;
  readonly compiledNode: CompiledNode;
  /** Undefined in a stack excluded from bundling. */
  readonly bundle?: Bundle;
  readonly timeoutSeconds: number;
  readonly identity: DeploymentFunction;
}

/**
 * A serverless workflow with no orchestrator (the Unum design): one Lambda
 * function per node of the compiled definition, one DynamoDB table for
 * checkpoints and coordination, and a small runtime bundled into every
 * function that checkpoints each step and invokes the next ones asynchronously.
 *
 * Function names are deterministic (`<stack>-<workflow>-<node>`), so a
 * function's IR and IAM policy name its successors without referencing them;
 * workflows with loops therefore synthesize without circular dependencies.
 * The functions on a cycle of invocations (a loop, a fold, a bounded Map's
 * slot chain, a retried Parallel/Map, a Map's launch tree; lib/compiler/cycles.ts)
 * set `recursiveLoop: Allow`, so that Lambda's recursive-loop detection (which
 * stops a chain of invocations that returns to the same function about 16
 * times) cannot end a legitimate loop; every other function keeps it.
 *
 * Each synth is a deployment, named by a hash of everything a run depends on
 * (`deployment`). Every function publishes a version per deployment with an
 * alias of that name, and every invocation a run makes names the alias of its
 * own deployment, so a deploy never changes the code or graph of a run in
 * flight. Runs start at the entry's alias `live`, which moves to a new
 * deployment only after all of it exists (the deployment's custom resource,
 * served by the sweeper function, makes the aliases). Old versions, aliases
 * and roles are retained, and the sweeper deletes them once no run can use them.
 */
export class UnumWorkflow extends Construct {
  /** The workflow's name (IR, function names, metric dimension). */
  readonly workflowName: string;
  /**
   * The deployment id of this synth: `d` and 20 hex digits of a hash of every
   * node's IR, every function's code and settings and unum-cdk's version.
   * Every function of the workflow has an alias of this name on the version
   * published for it, and a run started on it runs on those aliases only. The
   * same app synthesized twice gives the same id; any change a run could
   * notice gives a new one (stack output `<id>Deployment`).
   */
  readonly deployment: string;
  /**
   * The function that starts runs: invoke its alias `live` (`<name>:live`)
   * with `{ input, workflowId? }` or a raw input (`grantStart`).
   */
  readonly entryFunction: lambda.Function;
  /** The table holding checkpoints, fan-in state and run records. */
  readonly table: dynamodb.ITable;
  /** `table` for grants of item access (no index). */
  private readonly items: dynamodb.ITable;
  /** Physical function names of the nodes, the failure recorder, the task-response and run-control functions. */
  private readonly names: Map<string, string>;
  /** The function of every node, by node name (including nodes the compiler added). */
  readonly functions: Readonly<Record<string, lambda.Function>>;
  /** The on-failure destination of every node: records failed runs. */
  readonly failureRecorder: lambda.Function;
  /**
   * The failure recorder's on-failure destination: failures it could not
   * record (e.g. during a DynamoDB outage), kept 14 days for `unum recover`
   * (`UnumClient.recover`). Alarm on `metricDeadLetters()`.
   */
  readonly deadLetterQueue: sqs.IQueue;
  /** The compiler's output: IR and settings of every node (without function names). */
  readonly compiled: CompiledWorkflow;
  /**
   * The function that completes task tokens of the workflow's callback Tasks
   * (`grantTaskResponse` lets a principal invoke it); undefined when the
   * workflow has none.
   */
  readonly taskResponseFunction?: lambda.Function;
  /**
   * The function that stops and redrives runs, one alias per action (`stop`,
   * `redrive`, moved to each deployment with `live`): `grantStop` and
   * `grantRedrive` let a principal invoke one of them, and it alone writes
   * what they change in a run record.
   */
  readonly runControlFunction: lambda.Function;

  /**
   * A workflow from an Amazon States Language document: `tasks` (by state name
   * or resource) and `defaultTask` say which function each Task state runs.
   * Errors name the construct path, the ASL state and the field.
   */
  static fromAsl(scope: Construct, id: string, asl: string | object, props: UnumWorkflowFromAslProps): UnumWorkflow {
    const { tasks, defaultTask, ...workflowProps } = props;
    const workflowName = props.workflowName ?? id;
    const invalid = (err: UnumDefinitionError): UnumWorkflowError => {
      const node = err.node === WORKFLOW_LEVEL ? undefined : err.node;
      return new UnumWorkflowError(`${scope.node.path}/${id}`, workflowName, node, `invalid ASL definition (field '${err.field}'): ${err.detail}`, { cause: err });
    };
    let imported: ImportedAsl;
    try {
      imported = importAsl(asl, { workflowName, tasks, defaultTask });
    } catch (err) {
      if (!(err instanceof UnumDefinitionError)) throw err;
      throw invalid(err);
    }
    try {
      return new UnumWorkflow(scope, id, { ...workflowProps, definition: imported.definition });
    } catch (err) {
      // The constructor compiles the definition (once); a node it rejects is named as the document names it.
      const cause = err instanceof UnumWorkflowError ? err.cause : undefined;
      if (!(cause instanceof UnumDefinitionError) || cause.node === WORKFLOW_LEVEL) throw err;
      throw invalid(inAslTerms(cause, imported.names));
    }
  }

  constructor(scope: Construct, id: string, props: UnumWorkflowProps) {
    super(scope, id);
    // The local engine finds each function's bundle by its `aws:asset:path` metadata. The CDK CLI
    // asks for it; an app synthesized without the CLI (`node app.js`, `app.synth()` in a test) does
    // not, so the workflow asks for it for its own functions, unless the app said otherwise.
    if (this.node.tryGetContext(cxapi.ASSET_RESOURCE_METADATA_ENABLED_CONTEXT) === undefined) {
      this.node.setContext(cxapi.ASSET_RESOURCE_METADATA_ENABLED_CONTEXT, true);
    }
    this.workflowName = props.workflowName ?? id;
    const stack = Stack.of(this);
    if (Token.isUnresolved(stack.stackName)) {
      this.fail(undefined, 'the stack name must be known at synth time: it is part of every function name');
    }
    if (props.table && (props.encryptionKey || props.pointInTimeRecovery !== undefined)) {
      this.fail(undefined, 'encryptionKey and pointInTimeRecovery apply to a new table only; configure the table you pass in instead');
    }

    this.compiled = this.compile(props);
    // Findings that do not stop deployment (e.g. a Choice whose rules may all miss) show in `cdk synth` output.
    for (const warning of this.compiled.warnings) Annotations.of(this).addWarningV2('unum:definition', warning);
    const nodes = Object.entries(this.compiled.nodes);
    const names = this.functionNames(stack.stackName, nodes.map(([name]) => name));
    this.names = names;
    const bundling = resolveBundling(props.bundling);
    const onCycle = nodesOnCycles(new Map(nodes.map(([node, n]) => [node, n.successors])));

    this.table = props.table ?? createWorkflowTable(this, 'Table', props);
    this.items = tableItems(this, 'TableItems', this.table);
    const sameName = claimTableName(this, this.table, this.workflowName);
    if (sameName !== undefined) {
      this.fail(undefined, `shares its table with ${sameName}, a workflow of the same name; workflows sharing a table need different names (workflowName): their items' keys carry it`);
    }
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy,
    });
    const common = { props, bundling, logGroup };
    this.deadLetterQueue = createDeadLetterQueue(this, 'DeadLetters', props.removalPolicy);

    // Everything a run depends on is known before any function exists: its hash names the deployment.
    const plans = nodes.map(([node, compiledNode]) => this.planNode(node, compiledNode, common, onCycle.has(node)));
    const callbacks = nodes.filter(([, n]) => n.ir.callback).map(([node]) => node);
    const parts = this.partContext(common);
    const recorderPlan = planFailureRecorder(parts);
    const responderPlan = callbacks.length > 0 ? planTaskResponder(parts, callbacks) : undefined;
    const runControlPlan = planRunControl(parts);
    const deployment = deploymentId([...plans, recorderPlan, runControlPlan, ...(responderPlan ? [responderPlan] : [])].map((plan) => plan.identity));
    this.deployment = deployment;
    const rolePath = deploymentRolePath(stack.stackName, this.workflowName);
    const qualifiedArn = (node: string): string => functionArnFromName(this, qualifiedName(names.get(node) as string, deployment));

    const recorder = createFailureRecorder(parts, recorderPlan, deployment, rolePath, this.deadLetterQueue);
    this.failureRecorder = recorder.fn;
    const recorderArn = qualifiedArn(FAILURE_RECORDER_NAME);
    const recorderName = qualifiedName(names.get(FAILURE_RECORDER_NAME) as string, deployment);
    const members: DeploymentMember[] = [recorder.member];

    // Scheduler also delivers callback Tasks' timeouts and heartbeat checks, to the Task's own function,
    // and a run's timeout to the failure recorder: all to this deployment's aliases.
    const wakeUps = [...new Set([...nodes.flatMap(([, n]) => n.waitTargets), ...callbacks])].sort();
    const runTimeout = this.compiled.nodes[this.compiled.entry].ir.settings.runTimeoutSeconds !== undefined;
    const wakeUpArns = [...wakeUps.map(qualifiedArn), ...(runTimeout ? [recorderArn] : [])];
    const waits = new WaitScheduling(this, 'Waits', this.workflowName, deployment, rolePath, wakeUpArns);
    const schedules = (node: string, n: (typeof nodes)[number][1]): boolean => n.waitTargets.length > 0 || n.ir.callback !== undefined || (runTimeout && node === this.compiled.entry);
    const nodesScope = new Construct(this, 'Nodes');
    const functions: Record<string, lambda.Function> = {};
    for (const { node, compiledNode, bundle, timeoutSeconds } of plans) {
      const nodeScope = new Construct(nodesScope, node);
      const role = createExecutionRole(nodeScope, `Role${deployment}`, `unum workflow ${this.workflowName}, node ${node}, deployment ${deployment}`, rolePath);
      const ir = this.nodeIr(compiledNode, deployment);
      const fn = this.createFunction(nodeScope, 'Function', {
        ...common,
        role,
        functionName: names.get(node) as string,
        description: `unum workflow ${this.workflowName}, node ${node}`,
        code: bundle === undefined ? unbundledCode({ ir, bundling }) : assetCode(assetFiles(bundle, ir)),
        memorySize: compiledNode.fn.memorySize,
        timeoutSeconds,
        environment: {
          ...compiledNode.fn.environment,
          ...(schedules(node, compiledNode) ? waits.allowScheduling(role, compiledNode.ir.callback !== undefined) : {}),
          ...(runTimeout && node === this.compiled.entry ? { [ENV.runTimeoutFunction]: recorderName } : {}),
        },
        loop: onCycle.has(node),
        tableAccess: { ...WORKFLOW_TABLE_ACCESS.node, workflow: this.workflowName },
      });
      allowInvoke(role, compiledNode.successors.map(qualifiedArn));
      // Exactly the tables the node declares for its effects (validated by the compiler as ITables).
      for (const table of compiledNode.fn.effectsTables ?? []) allowItems(role, table as unknown as dynamodb.ITable, EFFECTS_TABLE_ACTIONS);
      // Lambda checks that the role may invoke the destination when the alias' async config is put.
      allowInvoke(role, [recorderArn]);
      retainRole(role);
      functions[node] = fn;
      members.push({
        node,
        functionName: names.get(node) as string,
        version: publishVersion(fn),
        role,
        async: { settings: compiledNode.async, failureDestinationArn: recorderArn },
      });
    }
    // Workflow-wide settings: every node's IR has the same retentions and handoff bound.
    const retention = workflowRetentionProblem(this.compiled.nodes[this.compiled.entry].ir.settings);
    if (retention) this.fail(undefined, retention);
    this.functions = functions;
    this.entryFunction = functions[this.compiled.entry];
    const responder = responderPlan && createTaskResponder(parts, responderPlan, deployment, rolePath);
    if (responder) {
      this.taskResponseFunction = responder.fn;
      members.push(responder.member);
    }
    const runControl = createRunControl(parts, runControlPlan, deployment, rolePath, Object.values(functions), runTimeout ? { waits, recorder: recorderName } : undefined);
    this.runControlFunction = runControl.fn;
    members.push(runControl.member);

    const workflowSettings = this.compiled.nodes[this.compiled.entry].ir.settings;
    new DeploymentSweeper(this, 'Sweeper', {
      common,
      workflowName: this.workflowName,
      deployment,
      functionName: names.get(SWEEPER_NAME) as string,
      table: this.table,
      functionNamePrefix: workflowFunctionPrefix(stack.stackName, this.workflowName),
      rolePath,
      members,
      entryNode: this.compiled.entry,
      // Starts reach this deployment only once all of it exists: until then `live` names the one before.
      dependencies: [nodesScope, recorder.scope, runControl.scope, waits, ...(responder ? [responder.scope] : [])],
      schedulerRole: waits.role,
      graph: Object.fromEntries(nodes.map(([node, n]) => [node, n.successors])),
      handoffSeconds: workflowSettings.handoffSeconds,
      runRetentionSeconds: workflowSettings.runRetentionSeconds,
      bundlingRequired: stack.bundlingRequired,
      guard: (what, action) => this.guard(undefined, what, action),
    });

    addOutputs(this, this.deployed());
    this.node.addMetadata(WORKFLOW_METADATA_TYPE, workflowMetadata(this.deployed()));
  }

  /** Allow `grantee` to start runs: invoke the entry function's `live` alias, and nothing else. */
  grantStart(grantee: iam.IGrantable): iam.Grant {
    return grantInvokeOf(grantee, `${this.entryFunction.functionArn}:${LIVE_ALIAS}`);
  }

  /**
   * Allow `grantee` to complete the task tokens of this workflow's callback
   * Tasks (`sendTaskSuccess`, `sendTaskFailure`, `sendTaskHeartbeat`), and
   * nothing else: it may invoke the workflow's task-response function (any
   * deployment's alias: a token names the deployment of its run), which alone
   * may invoke the callback Tasks' functions.
   */
  grantTaskResponse(grantee: iam.IGrantable): iam.Grant {
    if (!this.taskResponseFunction) this.fail(undefined, 'grantTaskResponse: the workflow has no Task with integrationPattern WAIT_FOR_TASK_TOKEN, so no task token to complete');
    return grantInvokeOfAliases(grantee, [this.taskResponseFunction], 'it answers only the task tokens it is given, each checked against its waiting record');
  }

  /**
   * Allow `grantee` to stop runs (`UnumClient.stop`, `unum stop`): invoke the
   * run-control function's `stop` alias, which alone writes the stop, and
   * GetItem of this workflow's run records (`run#<workflow>#*`: the client
   * reads what the stop left), nothing else but decrypting with the table's
   * key when it has one. No write to the table: a stopper cannot set a
   * run's status or result.
   */
  grantStop(grantee: iam.IGrantable): iam.Grant {
    return grantStop(grantee, this.grantTargets());
  }

  /**
   * Allow `grantee` to read runs (status, result, history, listRuns): GetItem,
   * BatchGetItem and Query of this workflow's items of every kind but its
   * envelope key (`envkey#<workflow>`: whoever reads it can forge envelopes),
   * by `dynamodb:LeadingKeys`; Query of its runs index; the table's key if any.
   * No Scan, which no condition bounds: `inspect` of a run without history
   * needs `table.grantReadData`, which reads the envelope key too
   * (docs/deploying-and-operating.md "Who can do what: the trust model").
   */
  grantRead(grantee: iam.IGrantable): iam.Grant {
    return grantRead(grantee, this.grantTargets());
  }

  /**
   * Allow `grantee` to list runs (`UnumClient.listRuns`, `unum runs`): Query
   * on the table's runs index, and BatchGetItem of this workflow's run records
   * (`run#<workflow>#*`: a listing reads their statuses), nothing else but
   * decrypting with the table's key when it has one. (`grantRead` includes all.)
   */
  grantListRuns(grantee: iam.IGrantable): iam.Grant {
    return grantListRuns(grantee, this.grantTargets());
  }

  /**
   * Allow `grantee` to run `unum recover` (`UnumClient.recover`): receive and
   * delete dead letters, read run records (`GetItem` of `run#<workflow>#*`)
   * to skip finished runs, and invoke this workflow's functions (any
   * deployment's alias, `<function>:*`) to replay the events that failed, as
   * they were sealed: a node refuses an envelope without its workflow's MAC.
   */
  grantRecover(grantee: iam.IGrantable): iam.Grant {
    return grantRecover(grantee, this.grantTargets());
  }

  /**
   * Allow `grantee` to redrive FAILED runs (`UnumClient.redrive`, `unum
   * redrive`): invoke the run-control function's `redrive` alias, which
   * alone updates the run record and re-sends the invocations parked in it,
   * and GetItem of this workflow's run records (`run#<workflow>#*`), nothing
   * else but decrypting with the table's key when it has one. No write to
   * the table and no invoke of the nodes' functions.
   */
  grantRedrive(grantee: iam.IGrantable): iam.Grant {
    return grantRedrive(grantee, this.grantTargets());
  }

  /** A metric the runtime emits for this workflow (namespace `Unum`, dimension `Workflow`). Sum over 5 minutes unless overridden. */
  metric(metricName: string, props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return workflowMetric(this.workflowName, metricName, props);
  }

  /** Node executions that committed a checkpoint and moved the run on. */
  metricTransitions(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.transitions, props);
  }

  /** Errors no retry or catch rule handled (each ends in a retry or a FAILED run). */
  metricFailures(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.failures, props);
  }

  /** Executions that found their checkpoint already written (duplicate deliveries and retries): user code was skipped. */
  metricDuplicateExecutions(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.duplicates, props);
  }

  /** Fan-ins that completed (the last branch invoked the join). */
  metricFanInCompletions(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.fanInCompletions, props);
  }

  /**
   * Events the runtime rejected without a retry: malformed start requests or
   * envelopes (each logged at ERROR with the reason; a run they name is
   * recorded FAILED where docs/architecture.md "Rejection" says so).
   */
  metricRejectedEvents(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.rejectedEvents, props);
  }

  /** Time spent in user handlers, milliseconds. Average over 5 minutes unless overridden. */
  metricUserCodeDuration(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.metric(METRICS.userCodeDuration, { statistic: 'Average', ...props });
  }

  /**
   * Dead letters waiting for `unum recover` (the queue's
   * ApproximateNumberOfMessagesVisible). Anything above 0 means runs whose
   * failure could not be recorded: alarm on it. Maximum over 5 minutes unless overridden.
   */
  metricDeadLetters(props?: cloudwatch.MetricOptions): cloudwatch.Metric {
    return this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', ...props });
  }

  private compile(props: UnumWorkflowProps): CompiledWorkflow {
    try {
      return compileWorkflow(this.workflowName, props.definition, {
        checkpointTtlSeconds: props.checkpointRetention?.toSeconds(),
        runRetentionSeconds: props.runRetention?.toSeconds(),
        inlineLimitBytes: props.inlineLimitBytes,
        invokeConcurrency: props.invokeConcurrency,
        mapLaunchWidth: props.mapLaunchWidth,
        runTimeoutSeconds: props.timeout?.toSeconds(),
        history: props.history,
        retryAttempts: props.retryAttempts,
        maxEventAgeSeconds: props.maxEventAge?.toSeconds(),
      });
    } catch (err) {
      if (err instanceof UnumDefinitionError) {
        this.fail(err.node === WORKFLOW_LEVEL ? undefined : err.node, `invalid definition (field '${err.field}'): ${err.detail}`, err);
      }
      throw err;
    }
  }

  private functionNames(stackName: string, nodes: readonly string[]): Map<string, string> {
    const names = new Map<string, string>();
    const owner = new Map<string, string>();
    for (const node of [...nodes, FAILURE_RECORDER_NAME, TASK_RESPONDER_NAME, RUN_CONTROL_NAME, SWEEPER_NAME]) {
      const name = physicalFunctionName(stackName, this.workflowName, node);
      const other = owner.get(name);
      if (other !== undefined) this.fail(node, `gets the same function name '${name}' as node '${other}'; rename one of them`);
      owner.set(name, node);
      names.set(node, name);
    }
    return names;
  }

  /** A node before any resource exists: validated, bundled, and what it contributes to the deployment id. */
  private planNode(node: string, compiledNode: CompiledNode, common: CommonFunctionOptions, loop: boolean): NodePlan {
    const settings = compiledNode.async;
    const timeoutSeconds = functionTimeoutSeconds(compiledNode.fn.timeoutSeconds);
    const problem = asyncSettingsProblem(settings) ?? retentionProblem({ checkpointTtlSeconds: compiledNode.ir.settings.checkpointTtlSeconds, timeoutSeconds }, settings);
    if (problem) this.fail(node, problem);
    const bundle = this.nodeBundle(node, compiledNode, common.bundling);
    const effectsTables = (compiledNode.fn.effectsTables ?? []).map((table) => (table as unknown as dynamodb.ITable).tableArn);
    const identity = this.identity(node, this.nodeIr(compiledNode), bundle, common, {
      memorySize: compiledNode.fn.memorySize,
      timeoutSeconds,
      environment: compiledNode.fn.environment,
      async: settings,
      loop,
      effectsTables,
    });
    return { node, compiledNode, bundle, timeoutSeconds, identity };
  }

  /**
   * A node's IR: the compiler's, with the function names of its successors
   * qualified with the deployment's alias. `deployment` undefined: the IR the
   * deployment id is computed from (deployment empty, names unqualified).
   */
  private nodeIr(compiledNode: CompiledNode, deployment?: string): NodeIR {
    const functionNames: Record<string, string> = {};
    for (const succ of compiledNode.successors) {
      const name = this.names.get(succ) as string;
      functionNames[succ] = deployment === undefined ? name : qualifiedName(name, deployment);
    }
    return { ...compiledNode.ir, deployment: deployment ?? '', functionNames };
  }

  /**
   * Validates the handler file and export, then bundles the node (its asset
   * is the bundle + IR). In a stack excluded from bundling, esbuild does not
   * run at all: no export check, no bundle (undefined).
   */
  private nodeBundle(node: string, compiledNode: CompiledNode, bundling: ResolvedBundling): Bundle | undefined {
    const { entry } = compiledNode.fn;
    const handler = compiledNode.ir.handler;
    if (entry !== undefined && !fs.existsSync(entry)) this.fail(node, `handler file not found: ${entry}`);
    if (!Stack.of(this).bundlingRequired) return undefined;
    if (entry !== undefined && handler.kind !== 'pass') {
      const { commonJs, names: exported } = this.guard(node, `cannot read exports of ${entry}`, () => moduleExports(entry));
      if (exported !== undefined && !exported.includes(handler.export)) {
        const module = commonJs ? `the CommonJS module ${entry}` : entry;
        this.fail(node, `${module} has no export '${handler.export}' (it exports: ${exported.join(', ') || 'nothing'}); every run of the node would fail to load it`);
      }
    }
    return this.guard(node, `bundling ${entry ?? 'the runtime'} failed`, () => bundleNode(entry, bundling, { callback: compiledNode.ir.callback !== undefined, jsonata: usesJsonata(compiledNode.ir) }));
  }

  /**
   * What one function contributes to the deployment id: its spec, its
   * bundle's digest, and its settings with those every function shares,
   * tokens resolved to their CloudFormation JSON (stable across synths).
   */
  private identity(name: string, spec: unknown, bundle: Bundle | undefined, common: CommonFunctionOptions, settings: object): DeploymentFunction {
    const { runtime, architecture } = functionPlatform(common.props);
    const shared = { runtime: runtime.name, architecture: architecture.name, bundling: common.bundling, table: this.table.tableName };
    return { name, spec, bundle: bundle && assetFiles(bundle).digest, settings: Stack.of(this).resolve({ ...shared, ...settings }) };
  }

  /** What the failure recorder and the task-response function are planned and created from. */
  private partContext(common: CommonFunctionOptions): WorkflowPartContext {
    return {
      workflow: this,
      workflowName: this.workflowName,
      compiled: this.compiled,
      names: this.names,
      table: this.table,
      common,
      identity: (name, spec, bundle, settings) => this.identity(name, spec, bundle, common, settings),
      guard: (what, action) => this.guard(undefined, what, action),
    };
  }

  private createFunction(scope: Construct, id: string, options: Omit<FunctionOptions, 'table'>): lambda.Function {
    return createWorkflowFunction(scope, id, { ...options, table: this.table });
  }

  private deployed(): DeployedWorkflow {
    return {
      workflowName: this.workflowName,
      deployment: this.deployment,
      compiled: this.compiled,
      functions: this.functions,
      entryFunction: this.entryFunction,
      table: this.table,
      deadLetterQueue: this.deadLetterQueue,
      failureRecorder: this.failureRecorder,
      taskResponseFunction: this.taskResponseFunction,
      functionName: (node) => this.names.get(node) as string,
      failureRecorderName: this.names.get(FAILURE_RECORDER_NAME) as string,
      taskResponderName: this.names.get(TASK_RESPONDER_NAME) as string,
      runControlFunction: this.runControlFunction,
      runControlName: this.names.get(RUN_CONTROL_NAME) as string,
    };
  }

  private grantTargets(): GrantTargets {
    const { workflowName, table, items, deadLetterQueue, functions } = this;
    return { workflowName, table, items, deadLetterQueue, functions, runControl: this.runControlFunction };
  }

  private guard<T>(node: string | undefined, what: string, action: () => T): T {
    try {
      return action();
    } catch (err) {
      return this.fail(node, `${what}: ${describeBuildFailure(err)}`);
    }
  }

  private fail(node: string | undefined, detail: string, cause?: Error): never {
    throw new UnumWorkflowError(this.node.path, this.workflowName, node, detail, cause && { cause });
  }
}
