import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { Json, LIVE_ALIAS, qualifiedName, StartRequest, WORKFLOW_ID_PATTERN } from '../../runtime/contract/ir';
import { runKey, type RunRef } from '../../runtime/contract/table';
import { UnumClientError, UnumRunFailedError, UnumRunNotFinishedError } from './errors';
import { InspectReport, inspectRun } from './inspect';
import { parseRunRecord, readRun } from '../runs/run-status';
import { recoverDeadLetters, type RecoverOptions, type RecoveryReport } from './recover';
import { TableReader } from '../runs/table-reader';
import { listRuns } from './runs';
import { type DeploymentSummary, listDeployments } from './deployments';
import { requestRedrive, requestStop } from './run-control';
import type { RedriveResult } from '../../runtime/contract/run-control';
import type { InspectOptions, ListRunsOptions, RedriveOptions, RunList, RunOutcome, RunStatus, StartAndWaitOptions, StartOptions, StopOptions, StopResult, WaitOptions, WorkflowLocation } from './types';
import { respondToTask } from './tasks';
import { splitFunctionRef } from '../../runtime/contract/function-ref';
import { pollUntilFinished } from '../runs/poll';
import { callbackTasksOf, findAssemblyWorkflow, localClients, localEngineOf, localLocation, locationFromOutputs } from './stack';
import { optionalSdkClient, optionalString, requireRecord, requireString, requireWorkflowId, requireWorkflowName } from './validate';
import { waitingTasks, type WaitingTask } from './waiting';

/** The SDK clients a `UnumClient` uses. */
export interface UnumSdkClients {
  /**
   * Lambda client used to start runs.
   * @default a new LambdaClient: region, credentials and `AWS_ENDPOINT_URL_LAMBDA` from the environment
   */
  readonly lambda?: LambdaClient;
  /**
   * DynamoDB client used to read run records, results and progress.
   * @default a new DynamoDBClient: region, credentials and `AWS_ENDPOINT_URL_DYNAMODB` from the environment
   */
  readonly dynamodb?: DynamoDBClient;
  /**
   * SQS client used by `recover` to read the dead-letter queue.
   * @default a new SQSClient: region, credentials and `AWS_ENDPOINT_URL_SQS` from the environment
   */
  readonly sqs?: SQSClient;
}

/** Properties of `UnumClient.forWorkflow`. */
export interface UnumClientProps extends WorkflowLocation, UnumSdkClients {}

/** Options of `UnumClient.fromCloudAssembly`. */
export interface CloudAssemblyOptions extends UnumSdkClients {
  /** Stack to look in, when several stacks have a workflow of that name. @default any stack */
  readonly stack?: string;
  /**
   * The deployed stack's outputs (one stack of `cdk deploy --outputs-file`),
   * needed when the stack creates the table, and for `recover`: CloudFormation
   * names the table and the dead-letter queue at deploy.
   * @default none: the table name must be a literal in the assembly
   */
  readonly outputs?: Readonly<Record<string, string>>;
  /**
   * The app runs on unum's local engine (`unum local start`, `startLocalEngine`)
   * and this is the engine's `environment`: the client talks to the engine's
   * endpoints (unless clients are given), and a table or dead-letter queue
   * CloudFormation would name at deploy has the engine's name for it.
   * @default `process.env` when it sets `AWS_ENDPOINT_URL_DYNAMODB` (the variables
   * `unum local start` prints to export, which the `unum` commands follow too) and no
   * `outputs` are given; otherwise none: a deployed app
   */
  readonly localEngine?: Readonly<Record<string, string | undefined>>;
}

/**
 * Starts runs of one workflow and reads their state from its table. There is
 * no orchestrator to ask: a run is started by invoking the entry function
 * asynchronously, and everything else is read from the run record and the
 * runtime's items (docs/architecture.md, "Table").
 */
export class UnumClient {
  /** A client for the workflow at `props` (stack outputs `<prefix>EntryFunctionName`, `<prefix>TableName`, `<prefix>WorkflowName`). */
  static forWorkflow(props: UnumClientProps): UnumClient {
    return new UnumClient(checkedProps('UnumClient.forWorkflow', props));
  }

  /**
   * A client for the workflow whose outputs (`<prefix>EntryFunctionName`,
   * `<prefix>TableName`) are in `outputs`, a plain `{ key: value }` record of
   * one stack. `workflow` is the construct path below the stack (usually its
   * id); it may be omitted when the stack has one workflow.
   */
  static fromStackOutputs(outputs: Readonly<Record<string, string>>, workflow?: string, clients: UnumSdkClients = {}): UnumClient {
    const where = 'UnumClient.fromStackOutputs';
    requireRecord(where, 'outputs', outputs, 'one stack of `cdk deploy --outputs-file`');
    optionalString(where, 'workflow', workflow, 'the construct path of the workflow below the stack');
    return new UnumClient(checkedProps(where, { ...locationFromOutputs(outputs, workflow), ...clients }));
  }

  /**
   * A client for a workflow of a synthesized app (`cdk.out`), found by its
   * `unum:workflow` construct metadata (by workflow name or construct path).
   * The stack outputs give what CloudFormation names at deploy: the table the
   * stack creates, and the dead-letter queue (for `recover`). On the local
   * engine the engine's names are used (see `localEngine`). The workflow's
   * callback Tasks are read from the IR bundled with its functions.
   */
  static fromCloudAssembly(dir: string, workflow?: string, options: CloudAssemblyOptions = {}): UnumClient {
    const where = 'UnumClient.fromCloudAssembly';
    requireString(where, 'dir', dir, 'the synthesized app, e.g. cdk.out');
    optionalString(where, 'workflow', workflow, 'the workflow name or construct path');
    optionalString(where, 'options.stack', options.stack, 'the stack to look in');
    const found = findAssemblyWorkflow(dir, workflow, options.stack);
    const callbackTasks = callbackTasksOf(dir, found);
    const known = callbackTasks ? { callbackTasks } : {};
    const engine = options.localEngine ?? (options.outputs ? undefined : localEngineOf(process.env));
    if (engine) return new UnumClient(checkedProps(where, { ...localLocation(found, engine), ...known, ...localClients(engine, options) }));
    const clients = { lambda: options.lambda, dynamodb: options.dynamodb, sqs: options.sqs };
    if (options.outputs) return new UnumClient(checkedProps(where, { ...locationFromOutputs(options.outputs, found.constructPath), ...known, ...clients }));
    if (typeof found.table !== 'string') {
      throw new UnumClientError(`the table of workflow ${found.workflow} (${found.table.logicalId}) is named by CloudFormation at deploy: pass the stack outputs (options.outputs), or, for the local engine (unum local start), its environment (options.localEngine, or export the variables it prints)`);
    }
    return new UnumClient(checkedProps(where, {
      entryFunction: found.entryFunction,
      table: found.table,
      workflow: found.workflow,
      ...(found.taskResponseFunction ? { taskResponseFunction: found.taskResponseFunction } : {}),
      ...(found.runControlFunction ? { runControlFunction: found.runControlFunction } : {}),
      ...known,
      ...clients,
    }));
  }

  readonly entryFunction: string;
  readonly tableName: string;
  readonly workflow: string;
  /** URL of the workflow's dead-letter queue, when known. */
  readonly deadLetterQueue?: string;
  /** The workflow's task-response function, when it has callback Tasks. */
  readonly taskResponseFunction?: string;
  /** The workflow's run-control function (`stop`, `redrive`), when known. */
  readonly runControlFunction?: string;
  /** Node names of the workflow's callback Tasks, when known (`WorkflowLocation.callbackTasks`). */
  readonly callbackTasks: readonly string[];
  private readonly lambda: LambdaClient;
  private readonly table: TableReader;
  private readonly dynamodb: DynamoDBClient;
  private sqsClient?: SQSClient;

  private constructor(props: UnumClientProps) {
    this.entryFunction = props.entryFunction;
    this.tableName = props.table;
    this.workflow = props.workflow;
    this.deadLetterQueue = props.deadLetterQueue;
    this.taskResponseFunction = props.taskResponseFunction;
    this.runControlFunction = props.runControlFunction;
    this.callbackTasks = [...(props.callbackTasks ?? [])];
    this.lambda = props.lambda ?? new LambdaClient({});
    this.dynamodb = props.dynamodb ?? new DynamoDBClient({});
    this.table = new TableReader(this.dynamodb, props.table);
    this.sqsClient = props.sqs;
  }

  /**
   * Starts a run and returns its id: invokes the entry function's `live`
   * alias, which names the workflow's newest complete deployment; the run
   * stays on that deployment to its end (docs/architecture.md "Deployments"). With an id that already has a run record,
   * nothing is invoked. Two concurrent starts with the same id may both invoke
   * the entry: the runtime's entry checkpoint makes the second a duplicate of
   * the first, so there is still one run (with the first start's input).
   */
  async start(input: Json, options: StartOptions = {}): Promise<string> {
    const workflowId = options.workflowId ?? randomUUID();
    if (!WORKFLOW_ID_PATTERN.test(workflowId)) {
      throw new UnumClientError(`invalid workflow id '${workflowId}': expected ${WORKFLOW_ID_PATTERN}`);
    }
    // JSON has no undefined: the run would get no input at all.
    if (input === undefined) throw new UnumClientError(`start: input is missing (the run's input: any JSON value, e.g. {})`);
    if (await this.table.get(runKey(this.run('start', workflowId)))) return workflowId;
    const request: StartRequest = { input, workflowId };
    try {
      // The `live` alias moves to a new deployment only once all of it exists: a run never starts on a half-deployed workflow.
      await this.lambda.send(new InvokeCommand({
        FunctionName: this.entryFunction,
        Qualifier: LIVE_ALIAS,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(request)),
      }));
    } catch (err) {
      throw new UnumClientError(`starting run ${workflowId}: invoking ${qualifiedName(this.entryFunction, LIVE_ALIAS)} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    return workflowId;
  }

  /** The run record's state. NOT_FOUND right after `start` only means the entry has not run yet. */
  async status(workflowId: string): Promise<RunStatus> {
    return parseRunRecord(workflowId, await this.table.get(runKey(this.run('status', workflowId))));
  }

  /**
   * The result of a SUCCEEDED run, read from the run record or from the
   * checkpoint it references. Throws `UnumRunFailedError` for a FAILED,
   * ABORTED or TIMED_OUT run and `UnumRunNotFinishedError` for a RUNNING or
   * unknown one.
   */
  async result(workflowId: string): Promise<Json> {
    const run = await readRun(this.table, this.run('result', workflowId));
    if (run.status === 'RUNNING' || run.status === 'NOT_FOUND') throw new UnumRunNotFinishedError(workflowId, run.status);
    if (run.status !== 'SUCCEEDED') throw new UnumRunFailedError(workflowId, run.error, run.status);
    return run.result as Json;
  }

  /**
   * Polls the run record until the run has its final status (SUCCEEDED,
   * FAILED, ABORTED, TIMED_OUT) and returns it (an unsuccessful run does not
   * throw here). A NOT_FOUND run is waited for: Lambda may hold the start
   * event in its queue for a while.
   */
  async wait(workflowId: string, options: WaitOptions = {}): Promise<RunStatus> {
    requireWorkflowId('wait', workflowId);
    return pollUntilFinished(workflowId, () => this.status(workflowId), options);
  }

  /**
   * Stops a RUNNING run: its record becomes ABORTED (with `error` and
   * `cause`), and its executions stop at their next transition, before user
   * code; pending waits and callbacks end when they fire or complete. A run
   * that has finished stays as it is. Returns the run's status after the
   * request (ABORTED, or the final status it had), and whether this request
   * stopped it. Needs `grantStop`.
   */
  async stop(workflowId: string, options: StopOptions = {}): Promise<StopResult> {
    const run = this.run('stop', workflowId);
    const stopped = await requestStop(this.lambda, this.runControlFunction, this.workflow, { workflowId, ...stopFields(options) });
    const status = await this.status(run.workflowId);
    if (status.status === 'NOT_FOUND') throw new UnumClientError(`run ${workflowId} of ${this.workflow} not found: not started yet, or its record expired; nothing was stopped`);
    return { ...status, stopped };
  }

  /** Starts a run, waits for it and returns its result; throws `UnumRunFailedError` if it failed. */
  async startAndWait(input: Json, options: StartAndWaitOptions = {}): Promise<RunOutcome> {
    const workflowId = await this.start(input, options);
    await this.wait(workflowId, options);
    return { workflowId, result: await this.result(workflowId) };
  }

  /** The run's progress as far as the table still holds it (see `InspectReport`). */
  async inspect(workflowId: string, options: InspectOptions = {}): Promise<InspectReport> {
    return inspectRun(this.table, this.run('inspect', workflowId), options, this.callbackTasks);
  }

  /**
   * The callback Tasks the run waits on, oldest first, each with its task
   * token (to answer with `sendTaskSuccess` or `sendTaskFailure`) and since
   * when: key reads of the waiting records of the workflow's callback Tasks
   * (`callbackTasks`), outside Map and Parallel states. Empty when the run
   * waits on none, or the client knows no callback Tasks of the workflow.
   */
  async waitingTasks(workflowId: string): Promise<WaitingTask[]> {
    return waitingTasks(this.table, this.run('waitingTasks', workflowId), this.callbackTasks);
  }

  /**
   * The workflow's runs, newest first, a page at a time (`nextToken`), from
   * the table's runs index: a Query, never a Scan, so its cost grows with the
   * runs read, not with the table. Only runs whose record still exists (run
   * retention) are listed. Needs `grantListRuns` (or `grantRead`).
   */
  async listRuns(options: ListRunsOptions = {}): Promise<RunList> {
    return listRuns(this.table, this.workflow, options);
  }

  /**
   * The workflow's deployments the sweeper recorded, newest first: when each
   * was activated, superseded and removed, which one is live (new runs start
   * on it), and how many functions each keeps deployed for its runs. A
   * deployment is kept while one of its runs can still run or be redriven
   * (docs/architecture.md "Deployments"). Needs `grantRead`.
   */
  async listDeployments(): Promise<DeploymentSummary[]> {
    return listDeployments(this.table, this.workflow);
  }

  /**
   * Completes the callback Task waiting for `token` with `output` (its
   * result, through its ResultSelector, ResultPath and OutputPath); the run
   * goes on. Exactly one response completes a token: a later or concurrent
   * one, or one after the task's timeout, throws
   * `UnumTaskAlreadyCompletedError` and changes nothing; a token no task
   * waits for throws `UnumTaskTokenError`. Needs `grantTaskResponse`.
   */
  async sendTaskSuccess(token: string, output: Json): Promise<void> {
    requireString('sendTaskSuccess', 'token', token, 'the task token the callback Task handed out');
    if (output === undefined) throw new UnumClientError('sendTaskSuccess: output is missing (the task\'s result: any JSON value)');
    await respondToTask(this.lambda, this.taskResponseFunction, this.workflow, { token, success: output });
  }

  /** Fails the callback Task waiting for `token` with `error` and `cause`, as if its handler threw: its Catch rules see the error. As `sendTaskSuccess` otherwise. */
  async sendTaskFailure(token: string, error: string, cause = ''): Promise<void> {
    requireString('sendTaskFailure', 'token', token, 'the task token the callback Task handed out');
    requireString('sendTaskFailure', 'error', error, 'the error name the Catch rules match');
    await respondToTask(this.lambda, this.taskResponseFunction, this.workflow, { token, failure: { error, cause } });
  }

  /** Tells the callback Task waiting for `token` that its work goes on: its heartbeat timeout starts again. */
  async sendTaskHeartbeat(token: string): Promise<void> {
    requireString('sendTaskHeartbeat', 'token', token, 'the task token the callback Task handed out');
    await respondToTask(this.lambda, this.taskResponseFunction, this.workflow, { token, heartbeat: true });
  }

  /**
   * Redrives a FAILED, ABORTED or TIMED_OUT run (Step Functions' redrive): it goes on from the
   * invocations that failed or were in flight when it ended, with the inputs
   * they read, and every committed step is reused (docs/architecture.md
   * "Redrive"). Possible within the redrive window (about the checkpoint
   * retention from the run's last lease renewal, less two handoffs), unless the
   * run failed at a Fail state, an unmatched Choice or a Parallel/Map
   * state's recorded failure: a redrive would fail there again (a failed
   * callback Task runs again, with a new token). Throws `UnumRunNotRedrivableError` for a run that is RUNNING
   * or SUCCEEDED, or has no invocation parked (a RUNNING run whose last redrive was interrupted is finished instead).
   * The run resumes on its own deployment (the code it started on), unless
   * `options.deployment` is `'latest'` and the newest deployment has the
   * run's node graph (`RedriveOptions`). Needs `grantRedrive`.
   */
  async redrive(workflowId: string, options: RedriveOptions = {}): Promise<RedriveResult> {
    const deployment: unknown = options?.deployment;
    if (deployment !== undefined && deployment !== 'latest') throw new UnumClientError(`redrive: options.deployment must be 'latest' or absent (the run's own deployment), got ${JSON.stringify(deployment)}`);
    return requestRedrive(this.lambda, this.runControlFunction, this.workflow, { workflowId: this.run('redrive', workflowId).workflowId, ...(deployment === undefined ? {} : { deployment: 'latest' as const }) });
  }

  /** The run `workflowId` names, checked: a JavaScript caller may pass anything. */
  private run(method: string, workflowId: string): RunRef {
    return { workflow: this.workflow, workflowId: requireWorkflowId(method, workflowId) };
  }

  /**
   * After an outage: replays every failure the failure recorder could not
   * record (the workflow's dead-letter queue), once in effect, and reports
   * what it did with each (docs/architecture.md, "Failure handling"). Runs
   * that already have their terminal record are not replayed; messages that
   * are not failure records are kept. Needs `grantRecover`.
   */
  async recover(options: RecoverOptions = {}): Promise<RecoveryReport> {
    const queueUrl = options.deadLetterQueue ?? this.deadLetterQueue;
    if (!queueUrl) {
      throw new UnumClientError('the dead-letter queue of this workflow is unknown: give its URL (stack output DeadLetterQueueUrl) as deadLetterQueue');
    }
    this.sqsClient ??= new SQSClient({});
    return recoverDeadLetters({
      workflow: this.workflow,
      sqs: this.sqsClient,
      lambda: this.lambda,
      queueUrl,
      status: (workflowId) => this.status(workflowId),
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 300,
    });
  }
}

/** A stop's error and cause, checked: a JavaScript caller may pass anything. */
function stopFields(options: StopOptions): { error?: string; cause?: string } {
  for (const field of ['error', 'cause'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'string') throw new UnumClientError(`stop: options.${field} must be a string, got ${JSON.stringify(options[field])}`);
  }
  return { ...(options.error === undefined ? {} : { error: options.error }), ...(options.cause === undefined ? {} : { cause: options.cause }) };
}

/** The props, checked field by field: JavaScript callers get a message naming the field, not a run that never appears. */
function checkedProps(where: string, props: UnumClientProps): UnumClientProps {
  if (typeof props !== 'object' || props === null) throw new UnumClientError(`${where}: props must be an object with entryFunction, table and workflow`);
  requireString(where, 'entryFunction', props.entryFunction, "name or ARN of the workflow's entry function, stack output <prefix>EntryFunctionName");
  requireString(where, 'table', props.table, "name of the workflow's DynamoDB table, stack output <prefix>TableName");
  requireWorkflowName(where, 'workflow', props.workflow);
  optionalString(where, 'deadLetterQueue', props.deadLetterQueue, 'URL of the dead-letter queue, stack output <prefix>DeadLetterQueueUrl');
  optionalString(where, 'taskResponseFunction', props.taskResponseFunction, 'the task-response function, stack output <prefix>TaskResponseFunctionName');
  optionalString(where, 'runControlFunction', props.runControlFunction, 'the run-control function, stack output <prefix>RunControlFunctionName');
  for (const field of ['entryFunction', 'taskResponseFunction', 'runControlFunction'] as const) {
    const qualifier = props[field] === undefined ? undefined : splitFunctionRef(props[field]).qualifier;
    // The client names the alias itself: runs start on the entry's live alias, task responses go to the token's deployment, stop and redrive to their action's alias.
    if (qualifier !== undefined) throw new UnumClientError(`${where}: ${field} '${props[field]}' has a qualifier (${qualifier}): give the function without one`);
  }
  const tasks: unknown = props.callbackTasks;
  if (tasks !== undefined && !(Array.isArray(tasks) && tasks.every((t) => typeof t === 'string' && t.length > 0))) {
    throw new UnumClientError(`${where}: callbackTasks must be an array of node names`);
  }
  for (const client of ['lambda', 'dynamodb', 'sqs'] as const) optionalSdkClient(where, client, props[client]);
  return props;
}
