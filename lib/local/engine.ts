/**
 * The local engine: runs a synthesized app on this machine. It starts DynamoDB
 * Local and creates the app's tables, starts the Lambda emulator and the fault
 * proxy every function sandbox talks to, expires TTL items, and starts and
 * waits for workflow runs. Faults are off unless a run is given a fault plan.
 */
import { randomUUID } from 'crypto';
import * as path from 'path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Json } from '../../runtime/contract/ir';
import { LOCAL_TABLE_PREFIX_VARIABLE, localQueueUrl, noWorkflowError } from '../assembly';
import { readRun, type RunStatusWithResult } from '../runs/run-status';
import { TableReader } from '../runs/table-reader';
import { pollUntilFinished } from '../runs/poll';
import { readCloudAssemblies, readCloudAssembly, type LocalApp, type LocalWorkflow } from './assembly';
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

  private constructor(
    /** @internal */
    readonly app: LocalApp,
    private readonly options: LocalEngineOptions,
  ) {}

  /** Starts an engine for the assembly in `dir` (e.g. `cdk.out`), or for several assemblies at once. */
  static async fromCloudAssembly(dir: string | readonly string[], options: LocalEngineOptions = {}): Promise<LocalEngine> {
    const read = { tablePrefix: options.dynamoDb?.tablePrefix ?? '' };
    const engine = new LocalEngine(typeof dir === 'string' ? readCloudAssembly(dir, read) : readCloudAssemblies(dir, read), options);
    await engine.start();
    return engine;
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

  /** The workflows of the app: name, entry function, table and nodes. */
  get workflows(): readonly LocalWorkflow[] {
    return [...this.app.workflows.values()];
  }

  /** One workflow by name; the error lists the workflows there are. */
  workflow(name: string): LocalWorkflow {
    const wf = this.app.workflows.get(name);
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

  /** Starts a run as a client would: an async (`Event`) invoke of the entry function with an explicit start request. @internal */
  startRun(workflow: string, input: Json, options: { workflowId?: string } = {}): string {
    const wf = this.workflow(workflow);
    const workflowId = options.workflowId ?? randomUUID();
    const fn = this.app.functions.get(wf.entryFunction);
    if (!fn) throw new UnumLocalError(`entry function ${wf.entryFunction} of '${workflow}' has no local bundle`);
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
    if (this.options.dynamoDb) await deleteTables(parts.client, this.app.tables.map((t) => t.tableName));
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
      if (existing) stops.push(() => deleteTables(client, this.app.tables.map((t) => t.tableName)));
      for (const table of this.app.tables) await createWorkflowTable(client, table.tableName, table.schema);
      const planFor = (workflowId: string | undefined): FaultPlan | undefined => (workflowId === undefined ? undefined : this.plans.get(workflowId));
      // The proxy's URL is only known once it listens; sandboxes are spawned later, on the first execution.
      let endpoint = '';
      // The emulator, made after the runner, keeps the timeline the log lines add to.
      const logged: { timeline?: Timeline } = {};
      const onLog = this.options.onLog;
      const runner = new FunctionRunner({
        get endpoint() { return endpoint; },
        region,
        maxSandboxes: this.options.maxSandboxes ?? Math.max(64, 2 * this.app.functions.size),
        ...(this.options.functionEnvironment ? { environment: this.options.functionEnvironment } : {}),
        onLog: (line, fn, executionId) => {
          if (executionId !== undefined) logged.timeline?.noteLog(executionId, line);
          onLog?.(line, fn, executionId);
        },
      });
      stops.push(() => runner.close());
      const sqs = new SqsEmulator(this.app.queues);
      stops.push(() => sqs.stop());
      const emulator = new LambdaEmulator(this.app.functions, runner, {
        timeScale: this.options.timeScale ?? 0.001,
        planFor,
        sendToQueue: (queue, body) => sqs.send(queue, body),
      });
      stops.push(() => emulator.stop());
      logged.timeline = emulator.timeline;
      const scheduler = new SchedulerEmulator({
        timeScale: this.options.timeScale ?? 0.001,
        pending: emulator.pending,
        deliver: (functionName, input) => {
          const fn = this.app.functions.get(functionName);
          if (fn) emulator.accept(fn, input);
        },
      });
      stops.push(() => scheduler.stop());
      const proxy = new FaultProxy({
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
      const reaper = new TtlReaper(client, this.app.tables, this.options.ttlIntervalMs ?? 10_000);
      reaper.start();
      this.parts = { dynamo, client, runner, emulator, proxy, reaper, sqs, scheduler };
    } catch (err) {
      for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
      throw err;
    }
  }
}
