/**
 * Runs whole workflows in-process: hand-written IR per node, an invoker that
 * queues Event invokes, and a driver that delivers them to the target node's
 * handler like Lambda would (concurrently, with async retries and an
 * on-failure destination), against any CheckpointStore.
 */
import { randomUUID } from 'node:crypto';
import { createFailureRecorder, createRunTimeoutHandler } from '../../runtime/entry/failure-recorder';
import type { FailureRecord } from '../../runtime/contract/failure-record';
import { createHandler, type LambdaHandler } from '../../runtime/entry/handler';
import { type Envelope, type Instruction, type NodeIR, type NodeSettings, type RunTimeoutEvent, qualifiedName } from '../../runtime/contract/ir';
import type { Invoker } from '../../runtime/ports/invoker';
import type { OneTimeSchedule, Scheduler } from '../../runtime/ports/scheduler';
import type { CompiledWorkflow } from '../../lib/compiler';
import { recorderSpec } from '../../lib/construct/recorder-spec';
import type { CheckpointStore } from '../../runtime/ports/store';
import type { LambdaContext } from '../../runtime/contract/handler-api';
import { testEnvelopeKey } from './envelope-key';

export const SETTINGS: NodeSettings = {
  inlineLimitBytes: 32768,
  invokeConcurrency: 16,
  checkpointTtlSeconds: 3600,
  runRetentionSeconds: 86400,
  timeoutSeconds: 30,
  handoffSeconds: 90,
};

export type NodeSpec = Partial<Omit<NodeIR, 'instructions'>> & { instructions: readonly Instruction[]; fn?: (...args: never[]) => unknown };

/** A node's function name in the driver (`fn-<node>`), qualified with the deployment's alias when there is one. */
export const driverFunction = (node: string, deployment = ''): string => (deployment ? qualifiedName(`fn-${node}`, deployment) : `fn-${node}`);

/**
 * Builds every node's IR: defaults, and functionNames covering all nodes
 * (`fn-<node>`, `fn-<node>:<deployment>` for a deployed workflow; `deployment`
 * empty: as the compiler leaves it).
 */
export function defineWorkflow(
  workflow: string,
  nodes: Record<string, NodeSpec>,
  settings: Partial<NodeSettings> = {},
  deployment = '',
): Record<string, { ir: NodeIR; module: Record<string, unknown> }> {
  const functionNames = Object.fromEntries(Object.keys(nodes).map((n) => [n, driverFunction(n, deployment)]));
  const first = Object.keys(nodes)[0];
  return Object.fromEntries(
    Object.entries(nodes).map(([node, spec]) => {
      const { fn, ...rest } = spec;
      const ir: NodeIR = {
        version: 2,
        workflow,
        deployment,
        node,
        entry: node === first,
        handler: fn ? { kind: 'user', export: 'handler' } : { kind: 'pass' },
        settings: { ...SETTINGS, ...settings },
        functionNames,
        ...rest,
      };
      return [node, { ir, module: fn ? { handler: fn } : {} }];
    }),
  );
}

/**
 * Matches the Cause of a handler's error, as Step Functions gives it for a
 * Lambda task: Lambda's error document as JSON, `{"errorType","errorMessage","trace"}`.
 */
export function lambdaCause(errorType: string, errorMessage: string): string {
  const head = JSON.stringify({ errorType, errorMessage }).slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return expect.stringMatching(new RegExp(`^${head},"trace":\\[".*"\\]}$`)) as string;
}

/**
 * The compiler's nodes as the driver runs them: function names `fn-<node>`
 * (`fn-<node>:<deployment>` on a deployment, as the construct fills them), every user export from `module`.
 */
export function fromCompiled(compiled: CompiledWorkflow, module: Record<string, unknown>, deployment = ''): Record<string, { ir: NodeIR; module: Record<string, unknown> }> {
  const functionNames = Object.fromEntries(Object.keys(compiled.nodes).map((n) => [n, driverFunction(n, deployment)]));
  return Object.fromEntries(Object.entries(compiled.nodes).map(([n, node]) => [n, { ir: { ...node.ir, deployment, functionNames }, module }]));
}

export const seq = (target: string): Instruction => ({ op: 'invoke', invoke: { kind: 'scalar', target } });
export const succeed: Instruction = { op: 'succeed' };

export interface Delivery {
  readonly functionName: string;
  readonly event: Envelope;
}

/** Records every invoke; the driver consumes the queue. */
export class QueueInvoker implements Invoker {
  readonly queue: Delivery[] = [];
  readonly sent: Delivery[] = [];
  /** Throw on invoke (simulates a crash at that point). */
  failNext = 0;

  async invoke(functionName: string, event: Envelope): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('injected crash before invoke');
    }
    // A copy: what was sent must not change if a handler mutates its event.
    const copy = JSON.parse(JSON.stringify(event)) as Envelope;
    this.queue.push({ functionName, event: copy });
    this.sent.push({ functionName, event: copy });
  }
}

/**
 * Records every schedule and queues the invoke of the first of each name at
 * once (the driver does not wait): a second of the same name is a no-op, as
 * Scheduler's ConflictException is to the runtime. `beforeWake` runs first
 * (a test moves its clock to the wake-up).
 */
export class QueueScheduler implements Scheduler {
  readonly schedules: OneTimeSchedule[] = [];
  /** Names the runtime asked to delete (every schedule fired already: nothing changes). */
  readonly unscheduled: string[] = [];
  beforeWake: (s: OneTimeSchedule) => void = () => undefined;

  constructor(private readonly invoker: QueueInvoker) {}

  async schedule(s: OneTimeSchedule): Promise<void> {
    const taken = this.schedules.some((other) => other.name === s.name);
    this.schedules.push(JSON.parse(JSON.stringify(s)) as OneTimeSchedule);
    if (taken) return;
    this.beforeWake(s);
    await this.invoker.invoke(s.functionName, s.event);
  }

  async unschedule(name: string): Promise<void> {
    this.unscheduled.push(name);
  }
}

export function lambdaContext(functionName: string, requestId: string = randomUUID(), remainingMs = 30000): LambdaContext {
  const deadline = Date.now() + remainingMs;
  return { awsRequestId: requestId, functionName, getRemainingTimeInMillis: () => deadline - Date.now() };
}

export interface DriverOptions {
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Lambda async retries after the first attempt. @default 2 */
  retryAttempts?: number;
  /** Deliver every event this many times (duplicate async delivery). @default 1 */
  deliveries?: number;
  /** Keep matching deliveries in `held` instead of delivering them. */
  hold?: (d: Delivery) => boolean;
}

/** The failure recorder's function name in the driver: where run-timeout schedules go. */
export const RECORDER_FUNCTION = 'fn-unum-failure';

export class Driver {
  readonly invoker = new QueueInvoker();
  readonly scheduler = new QueueScheduler(this.invoker);
  readonly handlers = new Map<string, LambdaHandler>();
  readonly failures: FailureRecord[] = [];
  readonly held: Delivery[] = [];
  readonly recorder: (r: FailureRecord) => Promise<void>;
  executions = 0;

  constructor(
    readonly store: CheckpointStore,
    readonly nodes: Record<string, { ir: NodeIR; module: Record<string, unknown> }>,
  ) {
    const first = Object.values(nodes)[0]?.ir;
    const deployment = first?.deployment || undefined;
    for (const [node, n] of Object.entries(nodes)) {
      this.handlers.set(driverFunction(node, deployment), createHandler(n.module, { ir: n.ir, store, invoker: this.invoker, scheduler: this.scheduler, envelopeKey: testEnvelopeKey }));
    }
    // What the construct puts in the recorder's environment, from the workflow's settings.
    const settings = first?.settings ?? SETTINGS;
    const names = new Map(Object.keys(nodes).map((n) => [n, `fn-${n}`]));
    const options = { spec: recorderSpec(nodes, names, deployment), invoker: this.invoker, envelopeKey: testEnvelopeKey };
    this.recorder = createFailureRecorder(store, first?.workflow, { runRetentionSeconds: settings.runRetentionSeconds, history: settings.history === true }, options);
    // The recorder's function also takes the run-timeout schedules (ENV.runTimeoutFunction names it).
    const timeOut = createRunTimeoutHandler(store, first?.workflow);
    this.handlers.set(deployment ? qualifiedName(RECORDER_FUNCTION, deployment) : RECORDER_FUNCTION, (event) => timeOut(event as RunTimeoutEvent));
  }

  /** Runs one event through a function as Lambda's async invoke would, with retries and the failure destination. */
  async deliver(functionName: string, event: unknown, retryAttempts = 2, requestId: string = randomUUID()): Promise<void> {
    const h = this.handlers.get(functionName);
    if (!h) throw new Error(`no function ${functionName}`);
    let last: unknown;
    for (let attempt = 1; attempt <= retryAttempts + 1; attempt++) {
      this.executions++;
      try {
        // Lambda's context names the function unqualified, whichever alias was invoked.
        await h(event, lambdaContext(functionName.split(':')[0], requestId));
        return;
      } catch (e) {
        last = e;
      }
    }
    const err = last as Error;
    const record: FailureRecord = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId,
        functionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName.includes(':') ? functionName : `${functionName}:$LATEST`}`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: retryAttempts + 1,
      },
      requestPayload: event,
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      // Lambda's Node.js error document.
      responsePayload: { errorType: err?.name ?? 'Error', errorMessage: err?.message ?? String(err), trace: (err?.stack ?? '').split('\n') },
    };
    this.failures.push(record);
    await this.recorder(record);
  }

  /** Starts a run at the entry and delivers invokes until none is left. */
  async run(event: unknown, options: DriverOptions = {}, requestId: string = randomUUID()): Promise<void> {
    const entry = Object.values(this.nodes).find((n) => n.ir.entry);
    if (!entry) throw new Error('no entry node');
    await this.deliver(driverFunction(entry.ir.node, entry.ir.deployment), event, options.retryAttempts, requestId);
    await this.drain(options);
  }

  /** Delivers the events held back so far (`hold`), then drains. */
  async releaseHeld(options: DriverOptions = {}): Promise<void> {
    this.invoker.queue.push(...this.held.splice(0));
    await this.drain(options);
  }

  async drain(options: DriverOptions = {}): Promise<void> {
    const limit = options.concurrency ?? 32;
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      while (this.invoker.queue.length > 0 && inFlight.size < limit) {
        const d = this.invoker.queue.shift() as Delivery;
        if (options.hold?.(d)) {
          this.held.push(d);
          continue;
        }
        for (let i = 0; i < (options.deliveries ?? 1); i++) {
          const p: Promise<void> = this.deliver(d.functionName, d.event, options.retryAttempts).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
      }
      if (inFlight.size === 0) return;
      await Promise.race(inFlight);
    }
  }
}
