/**
 * Entry of one function sandbox (a worker thread): loads the function's bundle
 * once, like a warm Lambda container, and runs one execution at a time on
 * request from the function runner. The thread is terminated to crash or time
 * out an execution, so nothing here needs to know about faults.
 */
import { createRequire } from 'module';
import * as path from 'path';
import { parentPort, workerData } from 'worker_threads';

export interface WorkerData {
  readonly assetDir: string;
  /** `file.export` as in the template's `Handler`. */
  readonly handler: string;
}

export interface ExecuteMessage {
  readonly type: 'execute';
  readonly executionId: string;
  /** The event as the JSON text Lambda would deliver. */
  readonly payload: string;
  readonly context: {
    readonly awsRequestId: string;
    readonly functionName: string;
    /** `$LATEST` or the version number the invocation resolved to. */
    readonly functionVersion: string;
    readonly invokedFunctionArn: string;
    readonly memoryLimitInMB: string;
  };
  /** Epoch ms at which the execution is killed, in memory the runner moves later while the engine is starved of CPU (engine-clock.ts). */
  readonly deadline: Float64Array;
}

export type WorkerReply =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly executionId: string; readonly payload: string }
  | { readonly type: 'error'; readonly executionId: string; readonly error: LambdaError };

export interface LambdaError {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly trace: string[];
}

type Handler = (event: unknown, context: unknown) => unknown;

function toLambdaError(err: unknown): LambdaError {
  if (err instanceof Error) {
    return { errorType: err.name, errorMessage: err.message, trace: (err.stack ?? '').split('\n') };
  }
  return { errorType: 'Error', errorMessage: String(err), trace: [] };
}

/** The handler's result as Lambda's Node.js runtime returns it: its JSON, or the runtime's error when it has none (a cycle, a value nested too deeply). */
function resultReply(executionId: string, value: unknown): WorkerReply {
  try {
    return { type: 'result', executionId, payload: JSON.stringify(value ?? null) };
  } catch (err) {
    return { type: 'error', executionId, error: { errorType: 'Runtime.JSONStringifyError', errorMessage: `Unable to stringify response body: ${String(err)}`, trace: [] } };
  }
}

function loadHandler(data: WorkerData): Handler {
  const dot = data.handler.lastIndexOf('.');
  const file = path.join(data.assetDir, data.handler.slice(0, dot));
  const exported = (createRequire(path.join(data.assetDir, 'index.js'))(file) as Record<string, unknown>)[data.handler.slice(dot + 1)];
  if (typeof exported !== 'function') throw new Error(`${data.handler} is not a function in ${data.assetDir}`);
  return exported as Handler;
}

/**
 * Calls `then` once what the execution wrote to stdout and stderr reached the
 * engine (a worker's write calls back when the parent took the chunk): the
 * engine reads an execution's log lines before it learns that the execution ended.
 */
function afterLogs(then: () => void): void {
  process.stdout.write('', () => process.stderr.write('', then));
}

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('worker.ts must run in a worker thread');
  let handler: Handler | undefined;
  let initError: LambdaError | undefined;
  try {
    handler = loadHandler(workerData as WorkerData);
  } catch (err) {
    initError = { ...toLambdaError(err), errorType: 'Runtime.ImportModuleError' };
  }
  port.on('message', (msg: ExecuteMessage) => {
    const reply = (r: WorkerReply): void => port.postMessage(r);
    if (!handler) {
      reply({ type: 'error', executionId: msg.executionId, error: initError as LambdaError });
      return;
    }
    const context = {
      ...msg.context,
      logGroupName: `/aws/lambda/${msg.context.functionName}`,
      logStreamName: 'local',
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, (msg.deadline[0] ?? 0) - Date.now()),
    };
    const run = handler;
    Promise.resolve()
      .then(() => run(JSON.parse(msg.payload), context))
      .then(
        (value) => afterLogs(() => reply(resultReply(msg.executionId, value))),
        (err: unknown) => afterLogs(() => reply({ type: 'error', executionId: msg.executionId, error: toLambdaError(err) })),
      );
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

main();
