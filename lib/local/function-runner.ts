/**
 * Runs executions of the app's functions, each in its own sandbox: a worker
 * thread with the function's own environment, memory limit and timeout. A
 * sandbox stays warm after an execution and is reused by the next execution of
 * the same version of the same function (like a Lambda container: the aliases
 * of a version share its sandboxes, `$LATEST` and each version have their
 * own); it is terminated when an
 * execution is killed (crash fault or timeout), so a killed execution can do
 * nothing more. Each sandbox reaches DynamoDB and Lambda through an endpoint
 * that names the sandbox (`<base>/w/<sandboxId>`), so the fault proxy knows
 * which execution made each call.
 */
import * as path from 'path';
import * as readline from 'readline';
import { Worker } from 'worker_threads';
import type { LocalFunction } from './assembly';
import { functionArn, LATEST } from './assembly';
import { EngineClock } from './engine-clock';
import type { ExecuteMessage, LambdaError, WorkerData, WorkerReply } from './worker';
import { workerScript } from './worker-script';

export type ExecutionOutcome =
  | { readonly kind: 'ok'; readonly payload: string }
  | { readonly kind: 'error'; readonly error: LambdaError }
  /** Killed by the engine: a crash fault or the function's timeout. */
  | { readonly kind: 'killed'; readonly reason: 'crash' | 'timeout'; readonly error: LambdaError };

export interface ExecutionSpec {
  readonly executionId: string;
  readonly fn: LocalFunction;
  readonly payload: string;
  readonly awsRequestId: string;
  /** Called when the execution starts in its sandbox (after waiting for one, and its cold start). */
  readonly onStart?: () => void;
}

export interface RunnerOptions {
  /** Base URL of the endpoint the sandboxes call (the fault proxy). */
  readonly endpoint: string;
  readonly region: string;
  /** Live sandboxes at most (idle ones of other functions are evicted first). @default 64 */
  readonly maxSandboxes?: number;
  /** Variables set in every sandbox's environment over the function's own (`LocalEngineOptions.functionEnvironment`). */
  readonly environment?: Readonly<Record<string, string>>;
  /** Receives every line a function writes to stdout/stderr. */
  readonly onLog?: (line: string, fn: string, executionId: string | undefined) => void;
}

interface Sandbox {
  readonly id: string;
  readonly fn: LocalFunction;
  readonly worker: Worker;
  readonly ready: Promise<void>;
  current?: Running;
  dead: boolean;
}

interface Running {
  readonly executionId: string;
  readonly finish: (o: ExecutionOutcome) => void;
}

/** Where `@aws-sdk/*` resolves from: the Lambda Node.js runtime provides the SDK, so bundles leave it out. */
const SDK_NODE_PATH = path.resolve(path.dirname(require.resolve('@aws-sdk/client-dynamodb/package.json')), '..', '..');

export class FunctionRunner {
  private readonly idle = new Map<string, Sandbox[]>();
  private readonly live = new Set<Sandbox>();
  private readonly bySandbox = new Map<string, Sandbox>();
  private readonly byExecution = new Map<string, Sandbox>();
  private readonly waiting: Array<() => void> = [];
  private readonly clock = new EngineClock();
  private readonly maxSandboxes: number;
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: RunnerOptions) {
    this.maxSandboxes = options.maxSandboxes ?? 64;
  }

  /** Runs one execution to its end (result, error, or kill). */
  async execute(spec: ExecutionSpec): Promise<ExecutionOutcome> {
    const sandbox = await this.acquire(spec.fn);
    await sandbox.ready;
    if (sandbox.dead) {
      return { kind: 'error', error: { errorType: 'Runtime.ExitError', errorMessage: `the sandbox of ${spec.fn.functionName} exited during init`, trace: [] } };
    }
    return new Promise<ExecutionOutcome>((resolve) => {
      const timeoutMs = spec.fn.timeoutSeconds * 1000;
      // On the engine's clock: time this machine was too busy to run the engine does not count (engine-clock.ts).
      const timeout = this.clock.after(timeoutMs, () => this.kill(spec.executionId, 'timeout'));
      sandbox.current = {
        executionId: spec.executionId,
        finish: (outcome) => {
          timeout.cancel();
          sandbox.current = undefined;
          this.byExecution.delete(spec.executionId);
          if (outcome.kind === 'killed' || sandbox.dead) this.discard(sandbox);
          else this.release(sandbox);
          resolve(outcome);
        },
      };
      this.byExecution.set(spec.executionId, sandbox);
      const msg: ExecuteMessage = {
        type: 'execute',
        executionId: spec.executionId,
        payload: spec.payload,
        context: {
          awsRequestId: spec.awsRequestId,
          functionName: spec.fn.functionName,
          functionVersion: spec.fn.version,
          // Lambda hands the ARN as invoked: qualified when the invocation named a qualifier.
          invokedFunctionArn: spec.fn.qualifier === LATEST ? functionArn(spec.fn.functionName) : `${functionArn(spec.fn.functionName)}:${spec.fn.qualifier}`,
          memoryLimitInMB: String(spec.fn.memoryMb),
        },
        deadline: timeout.deadline,
      };
      spec.onStart?.();
      sandbox.worker.postMessage(msg);
    });
  }

  /** Kills the sandbox running this execution; false if it is not running (any more). */
  kill(executionId: string, reason: 'crash' | 'timeout'): boolean {
    const sandbox = this.byExecution.get(executionId);
    if (!sandbox?.current) return false;
    sandbox.dead = true;
    const error: LambdaError = reason === 'timeout'
      ? { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${sandbox.fn.timeoutSeconds.toFixed(2)} seconds`, trace: [] }
      : { errorType: 'Runtime.ExitError', errorMessage: 'Runtime exited: killed by fault injection', trace: [] };
    sandbox.current.finish({ kind: 'killed', reason, error });
    return true;
  }

  /** The execution a sandbox is running now (undefined once it ended or was killed). */
  executionOf(sandboxId: string): string | undefined {
    return this.bySandbox.get(sandboxId)?.current?.executionId;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.live];
    for (const s of all) this.discard(s);
    await Promise.all(all.map((s) => s.worker.terminate().catch(() => undefined)));
  }

  private async acquire(fn: LocalFunction): Promise<Sandbox> {
    for (;;) {
      if (this.closed) throw new Error('function runner is closed');
      const warm = this.idle.get(sandboxKey(fn))?.pop();
      if (warm) return warm;
      if (this.live.size < this.maxSandboxes || this.evictIdle()) return this.spawn(fn);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private evictIdle(): boolean {
    for (const list of this.idle.values()) {
      const victim = list.shift();
      if (victim) {
        this.discard(victim);
        return true;
      }
    }
    return false;
  }

  private spawn(fn: LocalFunction): Sandbox {
    const id = `s${(this.nextId++).toString(36)}`;
    const endpoint = `${this.options.endpoint}/w/${id}`;
    const data: WorkerData = { assetDir: fn.assetDir, handler: fn.handler };
    const worker = new Worker(workerScript(), {
      workerData: data,
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(fn.memoryMb, 64) },
      env: {
        ...fn.environment,
        ...this.options.environment,
        AWS_ENDPOINT_URL_DYNAMODB: endpoint,
        AWS_ENDPOINT_URL_LAMBDA: endpoint,
        AWS_ENDPOINT_URL_SCHEDULER: endpoint,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_REGION: this.options.region,
        AWS_DEFAULT_REGION: this.options.region,
        AWS_LAMBDA_FUNCTION_NAME: fn.functionName,
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
        AWS_LAMBDA_FUNCTION_VERSION: fn.version,
        LAMBDA_TASK_ROOT: fn.assetDir,
        NODE_PATH: SDK_NODE_PATH,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    let markReady: () => void = () => undefined;
    const sandbox: Sandbox = { id, fn, worker, dead: false, ready: new Promise<void>((r) => { markReady = r; }) };
    this.live.add(sandbox);
    this.bySandbox.set(id, sandbox);
    for (const stream of [worker.stdout, worker.stderr]) {
      const onLog = this.options.onLog;
      if (onLog) readline.createInterface({ input: stream }).on('line', (line) => onLog(line, fn.functionName, sandbox.current?.executionId));
      else stream.resume(); // nobody reads the logs: drop them
    }
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') markReady();
      else if (sandbox.current?.executionId === reply.executionId) {
        sandbox.current.finish(reply.type === 'result' ? { kind: 'ok', payload: reply.payload } : { kind: 'error', error: reply.error });
      }
    });
    const died = (errorType: string, errorMessage: string): void => {
      sandbox.dead = true;
      markReady();
      sandbox.current?.finish({ kind: 'error', error: { errorType, errorMessage, trace: [] } });
      this.discard(sandbox);
    };
    worker.on('error', (err: Error & { code?: string }) => died(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'Runtime.OutOfMemory' : 'Runtime.UnhandledError', err.message));
    worker.on('exit', (code) => { if (!sandbox.dead) died('Runtime.ExitError', `Runtime exited with error: exit status ${code}`); });
    return sandbox;
  }

  private release(sandbox: Sandbox): void {
    if (this.closed) return;
    const list = this.idle.get(sandboxKey(sandbox.fn)) ?? [];
    list.push(sandbox);
    this.idle.set(sandboxKey(sandbox.fn), list);
    this.waiting.shift()?.();
  }

  private discard(sandbox: Sandbox): void {
    sandbox.dead = true;
    if (!this.live.delete(sandbox)) return;
    this.bySandbox.delete(sandbox.id);
    const list = this.idle.get(sandboxKey(sandbox.fn));
    if (list?.includes(sandbox)) list.splice(list.indexOf(sandbox), 1);
    void sandbox.worker.terminate().catch(() => undefined);
    this.waiting.shift()?.();
  }
}

/**
 * The sandboxes an execution may reuse: those of the same function's same
 * version, from the same deployment and asset (the engine's `$LATEST` of one
 * deployment is not the next one's).
 */
const sandboxKey = (fn: LocalFunction): string => [fn.functionName, fn.version, fn.deployment ?? '', fn.assetDir].join('\0');
