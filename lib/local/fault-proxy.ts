/**
 * The endpoint every function sandbox uses for both DynamoDB and Lambda
 * (`AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL_LAMBDA`). A sandbox's
 * endpoint carries its id in the path (`/w/<sandboxId>/...`), so each call is
 * attributed to the execution the sandbox runs. The proxy records every call,
 * asks the run's fault plan whether to crash the execution before or after
 * the call or to hang it until it times out, or to fail it as the service
 * would (throttling, a 500, a reset connection), and otherwise forwards
 * DynamoDB calls to DynamoDB Local and Invoke calls to the Lambda emulator. Calls
 * without a sandbox prefix (the engine's own clients, `unum local run`) pass
 * through unfaulted: this is also the emulator's public Invoke endpoint, and
 * the SQS endpoint of the app's queues (never faulted), the ResponseURL
 * of the custom resources a deploy runs, and the Lambda calls that make and
 * delete aliases (lambda-management.ts). Scheduler calls
 * (`AWS_ENDPOINT_URL_SCHEDULER`) go to the Scheduler emulator, faulted like the others. During a DynamoDB
 * outage (`dynamoDbReachable = false`) every DynamoDB call of a sandbox has
 * its connection dropped, as if the service could not be reached.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { type Item, keyOf, TABLE } from '../../runtime/contract/table';
import { parseFunctionRef } from './assembly';
import { describeEvent } from './events';
import type { CallFault, CallInfo, ExecutionInfo, FaultPlan } from './fault-plan';
import type { InvokeRequest, LambdaEmulator } from './emulator';
import type { FunctionRunner } from './function-runner';
import { serviceErrorReply } from './service-errors';
import { SchedulerEmulator } from './scheduler-emulator';
import type { SqsEmulator } from './sqs-emulator';
import type { Traffic } from './call-records';
import { CustomResourceResponses } from './custom-resources';

export interface FaultProxyOptions {
  readonly dynamoEndpoint: string;
  readonly emulator: LambdaEmulator;
  readonly runner: FunctionRunner;
  readonly sqs: SqsEmulator;
  readonly scheduler: SchedulerEmulator;
  readonly traffic: Traffic;
  readonly planFor: (workflowId: string | undefined) => FaultPlan | undefined;
  /** How long a call hangs before a `timeout` fault kills its execution. */
  readonly timeoutHoldMs: number;
  /** Where custom resources' answers to their ResponseURL go (a deploy's `Custom::UnumDeployment`). @default not served */
  readonly customResourceResponses?: CustomResourceResponses;
  /** Answers Lambda's alias, async-settings and DeleteFunction calls (lambda-management.ts); undefined: not one of them. @default not served */
  readonly lambdaManagement?: (method: string, pathname: string, query: URLSearchParams, body: string) => Reply | undefined;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
const SANDBOX_PREFIX = /^\/w\/([a-z0-9]+)(\/.*)$/;

interface Reply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export class FaultProxy {
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  /** Per execution: calls so far, by label. Weak: an execution's info is dropped when it ends. */
  private readonly callCounts = new WeakMap<ExecutionInfo, { index: number; labels: Map<string, number> }>();
  private url = '';
  /** False during a DynamoDB outage: the functions' DynamoDB calls fail to connect. */
  dynamoDbReachable = true;

  constructor(private readonly options: FaultProxyOptions) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: String(err) }));
      });
    });
    this.server.keepAliveTimeout = 60_000;
  }

  /** Listens on `port` of 127.0.0.1 (default: a free port) and returns the endpoint URL. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  get endpoint(): string {
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const body = await readBody(req);
    const receivedMs = performance.now();
    const target = String(req.headers['x-amz-target'] ?? '');
    if (target.startsWith('AmazonSQS.')) {
      send(res, await this.options.sqs.handle(target, body));
      return;
    }
    const responses = this.options.customResourceResponses;
    if (responses && CustomResourceResponses.handles(req.method ?? 'GET', url.pathname)) {
      send(res, responses.receive(url.pathname, body));
      return;
    }
    const sandbox = SANDBOX_PREFIX.exec(url.pathname);
    const pathname = sandbox ? (sandbox[2] as string) : url.pathname;
    if (!sandbox) {
      send(res, await this.forward(req, pathname, url, body));
      return;
    }
    if (!this.dynamoDbReachable && target) {
      req.socket.destroy();
      return;
    }
    const executionId = this.options.runner.executionOf(sandbox[1] as string);
    const exec = executionId === undefined ? undefined : this.options.emulator.execution(executionId);
    if (!exec) {
      // The execution was killed (or already ended): a dead sandbox makes no calls.
      req.socket.destroy();
      return;
    }
    const call = this.describeCall(exec, req, pathname, body);
    const fault: CallFault = this.options.planFor(exec.workflowId)?.callFault(exec, call) ?? 'none';
    const invoke = INVOKE_PATH.exec(pathname);
    const record = this.options.traffic.add({
      exec,
      call,
      request: body,
      fault,
      at: Date.now(),
      receivedMs,
      ...(invoke ? { target: decodeURIComponent(invoke[1] as string) } : {}),
    });
    if (fault === 'crash-before' || fault === 'timeout') {
      if (fault === 'timeout') await sleep(this.options.timeoutHoldMs);
      this.options.runner.kill(exec.executionId, fault === 'timeout' ? 'timeout' : 'crash');
      req.socket.destroy();
      return;
    }
    if (fault === 'unreachable') {
      req.socket.destroy();
      return;
    }
    if (fault === 'throughput' || fault === 'throttling' || fault === 'error-before') {
      const refusal = serviceErrorReply(fault, call.service);
      record.status = refusal.statusCode;
      send(res, refusal);
      return;
    }
    const reply = await this.forward(req, pathname, url, body);
    record.answeredMs = performance.now();
    record.status = reply.statusCode;
    if (call.service === 'dynamodb') record.response = reply.body;
    // A call made after the execution was killed (a concurrent call in flight) took effect, but nobody hears back.
    if (fault === 'crash-after' || this.options.runner.executionOf(sandbox[1] as string) !== exec.executionId) {
      this.options.runner.kill(exec.executionId, 'crash');
      req.socket.destroy();
      return;
    }
    // The call took effect (`status` says how); the execution hears a 500 instead.
    if (fault === 'error-after') send(res, serviceErrorReply(fault, call.service));
    else send(res, fault === 'stale' && call.eventuallyConsistent ? withoutItems(reply) : reply);
  }

  private describeCall(exec: ExecutionInfo, req: http.IncomingMessage, pathname: string, body: string): CallInfo {
    const invoke = INVOKE_PATH.exec(pathname);
    let service: CallInfo['service'];
    let operation: string;
    let label: string;
    if (SchedulerEmulator.handles(pathname)) {
      service = 'scheduler';
      operation = SchedulerEmulator.operation(req.method ?? 'GET');
      const schedule = SchedulerEmulator.describe(pathname, body);
      // A delete names no event, and its schedule's name holds a time: one label keeps a seed's replay exact.
      label = operation === 'DeleteSchedule' ? `${operation}(check)` : `${operation}(${describeEvent(schedule.functionName, schedule.input, '').identity})`;
    } else if (invoke) {
      service = 'lambda';
      operation = 'Invoke';
      const target = decodeURIComponent(invoke[1] as string);
      label = `Invoke(${describeEvent(parseFunctionRef(target).name, body, '').identity})`;
    } else {
      service = 'dynamodb';
      operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
      label = `${operation}(${keyKinds(body).join(',')})`;
    }
    const eventuallyConsistent = service === 'dynamodb' && (operation === 'GetItem' || operation === 'BatchGetItem') && !readsConsistently(body);
    const counts = this.callCounts.get(exec) ?? { index: 0, labels: new Map<string, number>() };
    this.callCounts.set(exec, counts);
    const occurrence = counts.labels.get(label) ?? 0;
    counts.labels.set(label, occurrence + 1);
    return { service, operation, label, occurrence, index: counts.index++, ...(eventuallyConsistent ? { eventuallyConsistent } : {}) };
  }

  private async forward(req: http.IncomingMessage, pathname: string, url: URL, body: string): Promise<Reply> {
    const invoke = INVOKE_PATH.exec(pathname);
    if (invoke && req.method === 'POST') {
      const type = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
      const request: InvokeRequest = {
        functionRef: decodeURIComponent(invoke[1] as string),
        invocationType: type === 'Event' || type === 'DryRun' ? type : 'RequestResponse',
        payload: body,
        ...(url.searchParams.get('Qualifier') ? { qualifier: url.searchParams.get('Qualifier') as string } : {}),
      };
      return this.options.emulator.invoke(request);
    }
    if (SchedulerEmulator.handles(pathname)) return this.options.scheduler.handle(req.method ?? 'GET', pathname, url.searchParams, body);
    if (req.headers['x-amz-target']) return this.toDynamo(req, body);
    const managed = this.options.lambdaManagement?.(req.method ?? 'GET', pathname, url.searchParams, body);
    if (managed) return managed;
    return { statusCode: 404, headers: { 'x-amzn-ErrorType': 'UnknownOperationException' }, body: '{"message":"unknown operation"}' };
  }

  private toDynamo(req: http.IncomingMessage, body: string): Promise<Reply> {
    const target = new URL(this.options.dynamoEndpoint);
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host, 'content-length': Buffer.byteLength(body) };
    return new Promise<Reply>((resolve, reject) => {
      const out = http.request({ host: target.hostname, port: target.port, path: '/', method: 'POST', headers, agent: this.agent }, (res) => {
        readBody(res).then((text) => {
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && k !== 'content-length' && k !== 'connection') h[k] = v;
          resolve({ statusCode: res.statusCode ?? 500, headers: h, body: text });
        }, reject);
      });
      out.on('error', reject);
      out.end(body);
    });
  }
}

/** `ckpt`, `fanin`, `run`: the kinds of table items a DynamoDB request touches (its keys' prefixes). */
export function keyKinds(body: string): string[] {
  const kinds = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const key = k === TABLE.partitionKey ? keyOf({ [k]: x } as Item) : undefined;
        if (typeof key === 'string') {
          kinds.add(key.split('#')[0] as string);
        } else if (k !== 'ExpressionAttributeValues') visit(x);
      }
    }
  };
  try {
    visit(JSON.parse(body));
  } catch {
    // not JSON: no keys
  }
  return [...kinds].sort();
}

function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

function send(res: http.ServerResponse, reply: Reply): void {
  res.writeHead(reply.statusCode, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a GetItem or BatchGetItem asks for strong consistency (every table of a batch, as the runtime sends it). */
function readsConsistently(body: string): boolean {
  try {
    const r = JSON.parse(body) as { ConsistentRead?: boolean; RequestItems?: Record<string, { ConsistentRead?: boolean }> };
    return r.RequestItems ? Object.values(r.RequestItems).every((t) => t.ConsistentRead === true) : r.ConsistentRead === true;
  } catch {
    return true;
  }
}

/** A read's answer as a replica that has seen none of its items gives it: no Item, empty Responses; the checksum header goes with the old body. */
function withoutItems(reply: Reply): Reply {
  if (reply.statusCode !== 200) return reply;
  const r = JSON.parse(reply.body) as { Item?: unknown; Responses?: Record<string, unknown[]> };
  delete r.Item;
  if (r.Responses) for (const table of Object.keys(r.Responses)) r.Responses[table] = [];
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([k]) => k.toLowerCase() !== 'x-amz-crc32'));
  return { ...reply, headers, body: JSON.stringify(r) };
}
