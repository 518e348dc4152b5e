/**
 * The local engine: runs a synthesized app on this machine. It starts DynamoDB
 * Local and creates the app's tables, starts the Lambda emulator and the fault
 * proxy every function sandbox talks to, expires TTL items, and starts and
 * waits for workflow runs. Faults are off unless a run is given a fault plan.
 * It deploys a newer synth of the app while runs are in flight, as
 * CloudFormation would (`deploy`): each run finishes on the deployment it started on.
 */
import { randomUUID } from 'crypto';
import * as path from 'path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LIVE_ALIAS, qualifiedName, type Json } from '../../runtime/contract/ir';
import { LOCAL_TABLE_PREFIX_VARIABLE, localQueueUrl, noWorkflowError } from '../assembly';
import { readRun, type RunStatusWithResult } from '../runs/run-status';
import { TableReader } from '../runs/table-reader';
import { pollUntilFinished } from '../runs/poll';
import { LATEST, PUBLISHED_VERSION, qualifiedRef, readCloudAssemblies, readCloudAssembly, type LocalApp, type LocalTable, type LocalWorkflow } from './assembly';
import { CustomResourceResponses, deployCustomResource, withPublishedVersions, type CustomResourceState } from './custom-resources';
import { DeployedFunctions } from './deployed-functions';
import { handleManagement } from './lambda-management';
import { startDynamoDbLocal } from './dynamodb-local';
import { LambdaEmulator } from './emulator';
import type { FaultPlan } from './fault-plan';
import { FaultProxy } from './fault-proxy';
import { FunctionRunner } from './function-runner';
import { SchedulerEmulator } from './scheduler-emulator';
import { SqsEmulator } from './sqs-emulator';
import type { Timeline } from './timeline';
import { synthesize } from './synth';
import { createWorkflowTable, deleteTables } from './create-tables';
import { Traffic } from './call-records';
import { TtlReaper } from './ttl-reaper';
import { UnumLocalError } from './errors';

/** Options of the local engine. */
export interface LocalEngineOptions {
  /**
   * Port of the engine's endpoint (`lambdaEndpoint`), which serves the Lambda
   * Invoke API and, passed through to DynamoDB Local, the DynamoDB API.
   * @default a free port
   */
  readonly port?: number;
  /**
   * Multiplies Lambda's async retry delays (1 and 2 minutes; event age counts them unscaled) and the
   * distance to a Wait's wake-up (a 1-day wait takes 86 s at the default, 8.6 s at 0.0001). @default 0.001
   */
  readonly timeScale?: number;
  /** Region the functions see (`AWS_REGION`). @default 'us-east-1' */
  readonly region?: string;
  /**
   * Function sandboxes (worker threads) alive at once. Below the app's working set (a warm
   * sandbox per function, more for concurrent executions) every execution evicts another
   * function's warm sandbox and pays a cold start: on the fault-test apps (139 functions)
   * that halved the fault campaign's speed.
   * @default twice the app's functions, at least 64
   */
  readonly maxSandboxes?: number;
  /** How often expired TTL items are deleted (each sweep scans every table). @default 10000 */
  readonly ttlIntervalMs?: number;
  /** How long a `timeout` fault hangs a call before the execution is killed. @default 20 */
  readonly timeoutHoldMs?: number;
  /**
   * Variables set in every function's environment, over the template's: what
   * a handler reaches outside the app, e.g. a local database's address.
   * The engine's own (endpoints, region, credentials) cannot be overridden.
   * @default none
   */
  readonly functionEnvironment?: Readonly<Record<string, string>>;
  /** Receives the functions' log lines. @default dropped */
  readonly onLog?: (line: string, functionName: string, executionId: string | undefined) => void;
  /**
   * A DynamoDB (Local) already running, instead of one the engine starts: several engines can
   * share one warm instance. The engine creates the app's tables there, each name preceded by
   * `tablePrefix` (functions see the prefixed names), and deletes them when it stops; the
   * service itself keeps running.
   * @default the engine starts DynamoDB Local in memory and stops it with itself
   */
  readonly dynamoDb?: ExistingDynamoDb;
}

/** A DynamoDB endpoint the engine uses without owning it. */
export interface ExistingDynamoDb {
  /** e.g. `http://127.0.0.1:8000` */
  readonly endpoint: string;
  /** Put before each of the app's table names, to keep them apart from other tables there. @default '' */
  readonly tablePrefix?: string;
}

/** @internal */
export interface WaitOptions {
  /** @default 60000 */
  readonly timeoutMs?: number;
  /** Called with every record polled (progress output). */
  readonly onPoll?: (r: RunStatusWithResult) => void;
  /** Ends the wait: it rejects with the signal's reason. @default none */
  readonly signal?: AbortSignal;
}

interface Started {
  readonly dynamo: { endpoint: string; stop(): Promise<void> | void };
  readonly client: DynamoDBClient;
  readonly runner: FunctionRunner;
  readonly emulator: LambdaEmulator;
  readonly proxy: FaultProxy;
  readonly reaper: TtlReaper;
  readonly sqs: SqsEmulator;
  readonly scheduler: SchedulerEmulator;
  readonly responses: CustomResourceResponses;
}

/** A deploy held before its last step (`LocalEngine.beginDeploy`). */
export interface PendingDeploy {
  /** The deployments of the new synth's workflows, by workflow. */
  readonly deployments: Readonly<Record<string, string>>;
  /**
   * Runs the deployment custom resources and moves each entry's `live` alias
   * to the new deployment: new runs start on it from now on. Rejects, having
   * undone the deploy, when a custom resource fails.
   */
  finish(): Promise<void>;
}

/**
 * Runs a synthesized CDK app on this machine: every function of the cloud
 * assembly (the same esbuild bundles that deploy) behind an emulator of the
 * Lambda Invoke API, and the app's tables in DynamoDB Local. Point SDK
 * clients at it with `environment`; `stop()` ends everything it started.
 */
export class LocalEngine {
  /** @internal */
  readonly traffic = new Traffic();
  private readonly plans = new Map<string, FaultPlan>();
  /** Workflow of each run started here. */
  private readonly runs = new Map<string, string>();
  private parts?: Started;
  /** Every version and alias deployed so far: nothing a run may still invoke is ever dropped. */
  private readonly deployed = new DeployedFunctions();
  /** Every table deployed so far (a deploy keeps the tables and items there are). */
  private readonly tables: LocalTable[] = [];
  private readonly queues: string[] = [];
  /** The workflows deployed, the newest synth of each. */
  private readonly deployedWorkflows = new Map<string, LocalWorkflow>();
  /** The `Custom::UnumDeployment` resources as the last deploy left them, by `<stack>/<logicalId>`. */
  private readonly customResources = new Map<string, CustomResourceState>();
  /** The deploy in progress: deploys go one at a time, as a stack's updates do. */
  private deploying?: Promise<unknown>;

  private constructor(
    /** The newest synth deployed. */
    private newest: LocalApp,
    private readonly options: LocalEngineOptions,
  ) {}

  /** Starts an engine for the assembly in `dir` (e.g. `cdk.out`), or for several assemblies at once. */
  static async fromCloudAssembly(dir: string | readonly string[], options: LocalEngineOptions = {}): Promise<LocalEngine> {
    const engine = new LocalEngine(readApp(dir, options), options);
    await engine.start();
    try {
      await (await engine.stage(engine.newest)).finish();
    } catch (err) {
      await engine.stop();
      throw err;
    }
    return engine;
  }

  /**
   * The app as deployed: every function version and alias, table and queue
   * any deploy brought, the newest synth of each workflow. @internal
   */
  get app(): LocalApp {
    return { ...this.newest, functions: this.deployed.functions, tables: this.tables, queues: this.queues, workflows: this.deployedWorkflows };
  }

  /**
   * Deploys a newer synth of the app (one or several assemblies, as the
   * engine was started with) while runs are in flight, as CloudFormation
   * updates the stack: tables the new synth adds are created and existing
   * ones keep their items; every function publishes a version for the new
   * deployment with its alias, while the older deployments' versions and
   * aliases stay, so each run finishes on the deployment it started on
   * (pending wake-ups too: they name their deployment's alias); unqualified
   * names run the newest code; the deployment custom resources run
   * (`Custom::UnumDeployment`: Create, or Update with the old properties);
   * last, each entry's `live` alias moves, so runs started from then on run
   * on the new deployment. A custom resource that answers FAILED fails the
   * deploy and undoes it (the new tables stay). Resolves with the new
   * deployment of each workflow.
   */
  async deploy(dir: string | readonly string[]): Promise<Readonly<Record<string, string>>> {
    const pending = await this.beginDeploy(dir);
    await pending.finish();
    return pending.deployments;
  }

  /**
   * `deploy` up to its last steps: the new tables and versions exist (and
   * the aliases the template makes), unqualified names run the new code, but
   * the `live` aliases still name the old deployment until `finish()`, which
   * runs the deployment custom resources and moves `live` (the moment
   * CloudFormation is at when it has updated the functions but not what
   * depends on all of them). Another deploy waits for this one to finish. @internal
   */
  async beginDeploy(dir: string | readonly string[]): Promise<PendingDeploy> {
    const app = readApp(dir, this.options);
    for (;;) {
      const other = this.deploying;
      if (!other) break;
      await other.catch(() => undefined);
    }
    return this.stage(app);
  }

  /**
   * Creates the app's new tables and queues and publishes its functions;
   * `finish` runs its custom resources (whose function may make the
   * deployment's aliases, `live` last) and moves the template's `live`.
   */
  private async stage(app: LocalApp): Promise<PendingDeploy> {
    let done: () => void = () => undefined;
    this.deploying = new Promise<void>((resolve) => { done = resolve; });
    const end = (): void => {
      this.deploying = undefined;
      done();
    };
    let undo: () => void;
    try {
      const parts = this.started;
      for (const table of app.tables) {
        if (this.tables.some((t) => t.tableName === table.tableName)) continue;
        await createWorkflowTable(parts.client, table.tableName, table.schema);
        this.tables.push(table);
      }
      for (const queue of app.queues) {
        if (this.queues.includes(queue)) continue;
        parts.sqs.addQueue(queue);
        this.queues.push(queue);
      }
      undo = this.deployed.publish(app);
    } catch (err) {
      end();
      throw err;
    }
    let finishing: Promise<void> | undefined;
    return {
      deployments: Object.fromEntries([...app.workflows.values()].map((wf) => [wf.name, wf.deployment])),
      finish: () => {
        finishing ??= this.runCustomResources(app).then(
          () => {
            this.deployed.moveLive(app);
            this.newest = app;
            for (const [name, wf] of app.workflows) this.deployedWorkflows.set(name, wf);
            end();
          },
          (err: unknown) => {
            undo();
            end();
            throw new UnumLocalError(`deploying ${app.dir}: ${err instanceof Error ? err.message : String(err)}`);
          },
        );
        return finishing;
      },
    };
  }

  /** Sends each `Custom::UnumDeployment` its Create or Update, with the version numbers published; keeps their states only if all succeed. */
  private async runCustomResources(app: LocalApp): Promise<void> {
    const parts = this.started;
    const states = new Map<string, CustomResourceState>();
    for (const declared of app.customResources) {
      const key = `${declared.stack}/${declared.logicalId}`;
      const resource = withPublishedVersions(declared, (name) => {
        const published = app.functions.get(qualifiedRef(name, PUBLISHED_VERSION));
        return published && this.deployed.publishedVersion(published);
      });
      const state = await deployCustomResource(resource, this.customResources.get(key), {
        endpoint: parts.proxy.endpoint,
        responses: parts.responses,
        invoke: (req) => parts.emulator.invoke(req),
      });
      if (state) states.set(key, state);
    }
    for (const [key, state] of states) this.customResources.set(key, state);
  }

  /**
   * Synthesizes the CDK app in `appDir` (with its cdk.json, using the app's
   * `aws-cdk` CLI) into `outDir` (default `<appDir>/cdk.out`), then starts an engine for it.
   */
  static async fromApp(appDir: string, options: LocalEngineOptions & { readonly outDir?: string } = {}): Promise<LocalEngine> {
    const outDir = path.resolve(appDir, options.outDir ?? 'cdk.out');
    await synthesize({ appDir, outDir, ...(options.region ? { region: options.region } : {}) });
    return LocalEngine.fromCloudAssembly(outDir, options);
  }

  /** The workflows of the app, each as its newest deployment: name, deployment, entry function, table and nodes. */
  get workflows(): readonly LocalWorkflow[] {
    return [...this.deployedWorkflows.values()];
  }

  /** One workflow by name; the error lists the workflows there are. */
  workflow(name: string): LocalWorkflow {
    const wf = this.deployedWorkflows.get(name);
    if (!wf) throw new UnumLocalError(noWorkflowError(this.app, name));
    return wf;
  }

  /** The Lambda Invoke endpoint (also DynamoDB's and SQS's, through the proxy), for SDK clients outside the engine. */
  get lambdaEndpoint(): string {
    return this.started.proxy.endpoint;
  }

  /** DynamoDB Local itself. */
  get dynamoEndpoint(): string {
    return this.started.dynamo.endpoint;
  }

  /**
   * The settings that point the AWS SDK (`UnumClient`, the `unum` commands,
   * your scripts) at this engine: its endpoints, the region, placeholder
   * credentials (the engine checks none, but the SDK wants some) and, in a
   * DynamoDB it was given with a table prefix, that prefix (`UNUM_LOCAL_TABLE_PREFIX`).
   */
  get environment(): Readonly<Record<string, string>> {
    return {
      AWS_ENDPOINT_URL_LAMBDA: this.lambdaEndpoint,
      AWS_ENDPOINT_URL_DYNAMODB: this.lambdaEndpoint,
      AWS_ENDPOINT_URL_SQS: this.lambdaEndpoint,
      AWS_ENDPOINT_URL_SCHEDULER: this.lambdaEndpoint,
      AWS_REGION: this.options.region ?? 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...(this.options.dynamoDb?.tablePrefix ? { [LOCAL_TABLE_PREFIX_VARIABLE]: this.options.dynamoDb.tablePrefix } : {}),
    };
  }

  /** A client of DynamoDB Local that bypasses the fault proxy. @internal */
  get dynamo(): DynamoDBClient {
    return this.started.client;
  }

  /** @internal */
  get emulator(): LambdaEmulator {
    return this.started.emulator;
  }

  /** The EventBridge Scheduler emulator (the wake-ups of Waits). @internal */
  get scheduler(): SchedulerEmulator {
    return this.started.scheduler;
  }

  /** The URL of the workflow's dead-letter queue at the engine's SQS endpoint (`lambdaEndpoint`). */
  deadLetterQueueUrl(workflow: string): string {
    const queue = this.workflow(workflow).deadLetterQueue;
    if (!queue) throw new UnumLocalError(`workflow '${workflow}' has no dead-letter queue (synthesized by an older unum-cdk?)`);
    return localQueueUrl(this.started.proxy.endpoint, queue);
  }

  /** Starts (false) or ends (true) a DynamoDB outage: meanwhile every DynamoDB call of a function fails to connect. @internal */
  setDynamoDbReachable(reachable: boolean): void {
    this.started.proxy.dynamoDbReachable = reachable;
  }

  /** Injects faults into the run's executions and events (set before `startRun`). @internal */
  setFaultPlan(workflowId: string, plan: FaultPlan): void {
    this.plans.set(workflowId, plan);
  }

  /**
   * Starts a run as a client would: an async (`Event`) invoke of the entry
   * function's `live` alias with an explicit start request. @internal
   */
  startRun(workflow: string, input: Json, options: { workflowId?: string } = {}): string {
    const wf = this.workflow(workflow);
    const workflowId = options.workflowId ?? randomUUID();
    const fn = this.deployed.functions.get(qualifiedName(wf.entryFunction, LIVE_ALIAS));
    if (!fn) throw new UnumLocalError(`entry function ${wf.entryFunction} of '${workflow}' has no local bundle with an alias ${LIVE_ALIAS}`);
    this.runs.set(workflowId, workflow);
    this.started.emulator.accept(fn, JSON.stringify({ workflowId, input }));
    return workflowId;
  }

  /** The run's record, with the result of a SUCCEEDED run (read from its checkpoint when stored by reference). @internal */
  readRun(workflowId: string): Promise<RunStatusWithResult>;
  /** The same, naming the workflow (runs started outside this engine). @internal */
  readRun(workflow: string, workflowId: string): Promise<RunStatusWithResult>;
  /** @internal */
  async readRun(a: string, b?: string): Promise<RunStatusWithResult> {
    const workflowId = b ?? a;
    const wf = b === undefined ? await this.workflowOf(a) : this.workflow(a);
    return readRun(this.reader(wf.tableName), { workflow: wf.name, workflowId });
  }

  /** Polls the run record until the run SUCCEEDED or FAILED. @internal */
  waitForRun(workflowId: string, options?: WaitOptions): Promise<RunStatusWithResult>;
  /** The same, naming the workflow (runs started outside this engine). @internal */
  waitForRun(workflow: string, workflowId: string, options?: WaitOptions): Promise<RunStatusWithResult>;
  /** @internal */
  async waitForRun(a: string, b?: string | WaitOptions, c?: WaitOptions): Promise<RunStatusWithResult> {
    const [wf, workflowId, options] = typeof b === 'string' ? [this.workflow(a), b, c] : [await this.workflowOf(a), a, b];
    const reader = this.reader(wf.tableName);
    // Polls every 20-250 ms: everything runs on this machine.
    return pollUntilFinished(workflowId, () => readRun(reader, { workflow: wf.name, workflowId }), {
      timeoutMs: options?.timeoutMs ?? 60_000,
      pollIntervalMs: 20,
      maxPollIntervalMs: 250,
      ...(options?.onPoll ? { onProgress: options.onPoll } : {}),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
  }

  private reader(tableName: string): TableReader {
    return new TableReader(this.started.client, tableName);
  }

  /** The workflow of a run: known for runs started here, else the first workflow that has its record. */
  private async workflowOf(workflowId: string): Promise<LocalWorkflow> {
    const known = this.runs.get(workflowId);
    if (known) return this.workflow(known);
    for (const wf of this.workflows) {
      if ((await readRun(this.reader(wf.tableName), { workflow: wf.name, workflowId })).status !== 'NOT_FOUND') return wf;
    }
    throw new UnumLocalError(`no run '${workflowId}' in any workflow table`);
  }

  /** Resolves when nothing is queued, retrying or running for the run (or, without an id, for any run). @internal */
  idle(workflowId?: string): Promise<void> {
    return this.started.emulator.pending.idle(workflowId);
  }

  /** Forgets a finished run's log, traffic and fault plan (long fault runs). @internal */
  forget(workflowId: string): void {
    this.plans.delete(workflowId);
    this.runs.delete(workflowId);
    this.traffic.forget(workflowId);
    this.started.emulator.timeline.forget(workflowId);
  }

  /** Stops everything the engine started: sandboxes, the endpoint, DynamoDB Local (or, in one it was given, deletes its tables). */
  async stop(): Promise<void> {
    const parts = this.parts;
    if (!parts) return;
    this.parts = undefined;
    parts.emulator.stop();
    parts.scheduler.stop();
    parts.sqs.stop();
    await parts.reaper.stop();
    await parts.runner.close();
    await parts.proxy.stop();
    if (this.options.dynamoDb) await deleteTables(parts.client, this.tables.map((t) => t.tableName));
    parts.client.destroy();
    await parts.dynamo.stop();
  }

  private get started(): Started {
    if (!this.parts) throw new UnumLocalError('the local engine is not running');
    return this.parts;
  }

  private async start(): Promise<void> {
    const region = this.options.region ?? 'us-east-1';
    const existing = this.options.dynamoDb;
    const dynamo = existing ? { endpoint: existing.endpoint, stop: () => undefined } : await startDynamoDbLocal();
    const stops: Array<() => Promise<void> | void> = [() => dynamo.stop()];
    try {
      const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      stops.push(() => client.destroy());
      // A DynamoDB the engine does not own keeps running: only the engine's tables go (stops run in reverse, so before the client).
      if (existing) stops.push(() => deleteTables(client, this.tables.map((t) => t.tableName)));
      const planFor = (workflowId: string | undefined): FaultPlan | undefined => (workflowId === undefined ? undefined : this.plans.get(workflowId));
      // The proxy's URL is only known once it listens; sandboxes are spawned later, on the first execution.
      let endpoint = '';
      // The emulator, made after the runner, keeps the timeline the log lines add to.
      const logged: { timeline?: Timeline } = {};
      const onLog = this.options.onLog;
      const runner = new FunctionRunner({
        get endpoint() { return endpoint; },
        region,
        // Counted by function: a run's executions use its deployment's version, whatever alias names it.
        maxSandboxes: this.options.maxSandboxes ?? Math.max(64, 2 * [...this.newest.functions.values()].filter((f) => f.qualifier === LATEST).length),
        ...(this.options.functionEnvironment ? { environment: this.options.functionEnvironment } : {}),
        onLog: (line, fn, executionId) => {
          if (executionId !== undefined) logged.timeline?.noteLog(executionId, line);
          onLog?.(line, fn, executionId);
        },
      });
      stops.push(() => runner.close());
      const sqs = new SqsEmulator([]);
      stops.push(() => sqs.stop());
      const emulator = new LambdaEmulator(this.deployed.functions, runner, {
        timeScale: this.options.timeScale ?? 0.001,
        planFor,
        sendToQueue: (queue, body) => sqs.send(queue, body),
      });
      stops.push(() => emulator.stop());
      logged.timeline = emulator.timeline;
      const scheduler = new SchedulerEmulator({
        timeScale: this.options.timeScale ?? 0.001,
        pending: emulator.pending,
        deliver: (functionRef, input) => {
          const fn = this.deployed.functions.get(functionRef);
          if (fn) emulator.accept(fn, input);
        },
      });
      stops.push(() => scheduler.stop());
      const responses = new CustomResourceResponses();
      const proxy = new FaultProxy({
        customResourceResponses: responses,
        lambdaManagement: (method, pathname, query, body) => handleManagement(this.deployed, method, pathname, query, body),
        dynamoEndpoint: dynamo.endpoint,
        emulator,
        runner,
        sqs,
        scheduler,
        traffic: this.traffic,
        planFor,
        timeoutHoldMs: this.options.timeoutHoldMs ?? 20,
      });
      endpoint = await proxy.start(this.options.port);
      stops.push(() => proxy.stop());
      // The reaper sweeps the tables there are at each sweep: a deploy may add some.
      const reaper = new TtlReaper(client, this.tables, this.options.ttlIntervalMs ?? 10_000);
      reaper.start();
      this.parts = { dynamo, client, runner, emulator, proxy, reaper, sqs, scheduler, responses };
    } catch (err) {
      for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
      throw err;
    }
  }
}

function readApp(dir: string | readonly string[], options: LocalEngineOptions): LocalApp {
  const read = { tablePrefix: options.dynamoDb?.tablePrefix ?? '' };
  return typeof dir === 'string' ? readCloudAssembly(dir, read) : readCloudAssemblies(dir, read);
}
