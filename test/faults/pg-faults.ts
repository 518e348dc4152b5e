/**
 * PostgreSQL's own failures in the fault campaign (issue 35): a server
 * crash-restart (`pgRestart`), a SIGKILL of the transaction's backend
 * (`pgBackendKill`), each just before the library's COMMIT or just after it
 * (the server committed, its answer lost), and a lost transaction status
 * (`pgStatusLoss`, for the `introspection` strategy).
 *
 * The handlers run in the engine's sandboxes, the server belongs to the
 * campaign: the handler (app/pg-fault-orders.ts) asks this control channel,
 * an HTTP endpoint on 127.0.0.1 whose address the functions get in their
 * environment, at each point; the channel answers from the run's plan and,
 * for a server fault, performs it before answering. A crash breaks every
 * session, so a server fault fires only while the asking execution holds the
 * only connection lent out (the others' transactions are not this seed's
 * faults), and a connection is not lent while a fault is under way. Nor
 * does it fire on the last attempt Lambda allows (the campaign's plans never
 * fault it either): the execution is found in the engine's timeline by its
 * request id.
 */
import { createHash } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Pool } from 'pg';
import type { ArmedFaults, Target } from '../../lib/testing/campaign';
import type { EffectCheck } from '../../lib/testing/checker';
import type { LocalEngine } from '../../lib/local/engine';
import type { TimelineEntry } from '../../lib/local/timeline';
import type { Json } from '../../runtime/contract/ir';
import type { Order } from '../../examples/orders/handlers';
import type { TestPostgres } from '../support/postgres';
import { orderEffects } from './app/orders';
import { PG_FAULTS_ENV, type PgFaultPoint } from './app/pg-fault-orders';

export const PG_FAULT_KINDS = ['pgRestart', 'pgBackendKill', 'pgStatusLoss'] as const;
export type PgFaultKind = (typeof PG_FAULT_KINDS)[number];

export interface PgFault {
  readonly kind: PgFaultKind;
  readonly point: PgFaultPoint;
}

/** The share of seeds that draw no PostgreSQL fault. */
const FAULT_FREE = 0.2;

const draw = (seed: number, what: string): number => createHash('sha256').update(`pg|${seed}|${what}`).digest().readUInt32BE(0) / 2 ** 32;

/** The PostgreSQL fault of a seed among `kinds` (the ones the target's strategy can meet), or none. */
export function pgFaultForSeed(seed: number, kinds: readonly PgFaultKind[]): PgFault | undefined {
  if (kinds.length === 0 || draw(seed, 'any') < FAULT_FREE) return undefined;
  const kind = kinds[Math.floor(draw(seed, 'kind') * kinds.length)] as PgFaultKind;
  if (kind === 'pgStatusLoss') return { kind, point: 'before-transaction' };
  return { kind, point: draw(seed, 'point') < 0.5 ? 'before-commit' : 'after-commit' };
}

interface FaultRequest {
  readonly runId: string;
  readonly requestId?: string;
  readonly point?: PgFaultPoint;
  readonly pid?: number;
}

interface Armed {
  readonly fault: PgFault;
  readonly injected: Record<PgFaultKind, number>;
  fired: boolean;
}

const noFaults = (): Record<PgFaultKind, number> => ({ pgRestart: 0, pgBackendKill: 0, pgStatusLoss: 0 });

export class PgFaultControl {
  private readonly armed = new Map<string, Armed>();
  /** Connections lent out, by execution (`runId|requestId`). */
  private readonly lent = new Map<string, number>();
  private disruption: Promise<void> = Promise.resolve();

  private constructor(
    private readonly http: http.Server,
    private readonly server: TestPostgres,
    private readonly engine: () => LocalEngine,
  ) {}

  /** Listens on a free port of 127.0.0.1; `engine` is read per request (the engine starts after the channel, which its environment names). */
  static async start(server: TestPostgres, engine: () => LocalEngine): Promise<PgFaultControl> {
    const listener = http.createServer();
    const control = new PgFaultControl(listener, server, engine);
    listener.on('request', (req, res) => void control.answer(req, res));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    return control;
  }

  /** The functions' environment: where the handlers ask. */
  get environment(): Readonly<Record<string, string>> {
    return { [PG_FAULTS_ENV]: `http://127.0.0.1:${(this.http.address() as AddressInfo).port}` };
  }

  /** Puts `fault` in the run's plan (fired at most once); no fault: the run is only counted. */
  arm(workflowId: string, fault: PgFault | undefined): ArmedFaults {
    const injected = noFaults();
    if (fault) this.armed.set(workflowId, { fault, injected, fired: false });
    return { counts: () => ({ ...injected }), disarm: () => void this.armed.delete(workflowId) };
  }

  /** Resolves once no server fault is under way (a check reading the database waits for it). */
  settled(): Promise<void> {
    return this.disruption;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const request = JSON.parse(body) as FaultRequest;
      const fault = await this.handle(req.url ?? '', request);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fault ? { fault } : {}));
    } catch (e) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
    }
  }

  private async handle(path: string, r: FaultRequest): Promise<PgFaultKind | undefined> {
    const execution = `${r.runId}|${r.requestId ?? ''}`;
    if (path === '/begin') {
      await this.disruption;
      this.lent.set(execution, (this.lent.get(execution) ?? 0) + 1);
      return undefined;
    }
    if (path === '/end') {
      const n = (this.lent.get(execution) ?? 1) - 1;
      if (n > 0) this.lent.set(execution, n);
      else this.lent.delete(execution);
      return undefined;
    }
    const armed = this.armed.get(r.runId);
    if (!armed || armed.fired || armed.fault.point !== r.point || !this.mayFault(r)) return undefined;
    const { kind } = armed.fault;
    if (kind !== 'pgStatusLoss') {
      if (!this.alone(execution)) return undefined;
      this.disruption = kind === 'pgRestart' ? this.server.crashRestart() : this.server.killBackend(r.pid as number);
      armed.fired = true;
      armed.injected[kind]++;
      await this.disruption;
      return kind;
    }
    armed.fired = true;
    armed.injected[kind]++;
    return kind;
  }

  /** Not the last attempt Lambda allows: a fault there would fail the run for a reason the runtime cannot control. */
  private mayFault(r: FaultRequest): boolean {
    const engine = this.engine();
    const executions = this.running(r.runId, r.requestId);
    // Lambda's retries of an event keep its request id: every running execution of it must have an attempt left.
    return executions.length > 0 && executions.every((e) => e.attempt < 1 + (engine.app.functions.get(e.functionName)?.async.retryAttempts ?? 0));
  }

  /** The run's executions of that request id still running. */
  private running(runId: string, requestId: string | undefined): TimelineEntry[] {
    return this.engine().emulator.timeline.of(runId).filter((e) => e.requestId === requestId && e.outcome === undefined);
  }

  /** The asking execution holds the only connection lent out (executions that ended meanwhile no longer count). */
  private alone(execution: string): boolean {
    for (const key of [...this.lent.keys()]) {
      const [runId, requestId] = key.split('|');
      if (this.running(runId as string, requestId).length === 0) this.lent.delete(key);
    }
    return [...this.lent.keys()].every((key) => key === execution);
  }
}

/** Why an `introspection` transaction may fail the run: its status cannot be known (runtime/effects/postgres-introspection.ts). */
export const UNDETERMINABLE = /whether its transaction committed cannot be determined/;

/**
 * The campaign's targets under PostgreSQL faults (`--effects`): the Orders
 * shape with the default strategy, which must succeed and apply each effect
 * once under a restart or a killed backend; and with `introspection`, which
 * may instead fail with the undeterminable EffectError, having applied each
 * effect at most once.
 */
export async function pgFaultTargets(engine: LocalEngine, pool: Pool, control: PgFaultControl, order: Order): Promise<Target[]> {
  const input = order as unknown as Json;
  const armWith = (kinds: readonly PgFaultKind[]) => (seed: number, workflowId: string): ArmedFaults => control.arm(workflowId, pgFaultForSeed(seed, kinds));
  // Another run's fault may have the server down when a run is checked: its counters are read once it is back.
  const effectsOf = async (workflow: string): Promise<EffectCheck> => {
    const check = await orderEffects(engine, workflow, pool, order);
    return { ...check, applied: async (workflowId) => (await control.settled(), check.applied(workflowId)) };
  };
  return [
    { workflow: 'PgOrders', input, effects: await effectsOf('PgOrders'), arm: armWith(['pgRestart', 'pgBackendKill']) },
    {
      workflow: 'PgIntrospectedOrders',
      input,
      effects: { ...(await effectsOf('PgIntrospectedOrders')), undeterminable: UNDETERMINABLE },
      expect: (reference) => ({ kind: 'oneOf', expectations: [{ kind: 'result', result: reference.result ?? null }, { kind: 'failed', error: 'EffectError' }] }),
      arm: armWith(PG_FAULT_KINDS),
    },
  ];
}
