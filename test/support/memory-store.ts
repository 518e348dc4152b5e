/**
 * An in-memory CheckpointStore with DynamoDB's semantics for what the runtime
 * uses; counts calls. With `expires`, an item is deleted as soon as its TTL
 * passes by `Date.now()` (DynamoDB may be as prompt), before every call.
 */
import type { CheckpointStore, ReadOptions, ReadSet, ShardRenewal } from '../../runtime/ports/store';
import { type Checkpoint, historyKey, type StateFailure, stateFailureKey, type HistoryItem, parkKey, type Parked, parseKey, type RenewalClaim, type RunEnd, type RunError, type RunInterruption, type RunRecord, runKey, type RunRef, runTimedOutAt, REDRIVABLE_STATUSES, type RunRecordStatus } from '../../runtime/contract/table';

/** A status a redrive resumes: an invocation that reads it parks, as on the table (`runRedrivable`). */
const redrivable = (status: RunRecordStatus | undefined): boolean => status !== undefined && REDRIVABLE_STATUSES.includes(status);

export class MemoryStore implements CheckpointStore {
  constructor(private readonly options: { readonly expires?: boolean } = {}) {}

  readonly checkpoints = new Map<string, Checkpoint>();
  readonly shards = new Map<string, { a: Set<number>; n: number; rb?: string }>();
  /** Every item's TTL by key (checkpoints, shards, run records `runKey`). */
  readonly ttls = new Map<string, number>();
  /** Items deleted because their TTL passed (with `expires`), by key. */
  readonly expired: string[] = [];
  /** State-attempt failures by join invocation name. */
  readonly stateFailures = new Map<string, StateFailure>();
  /** Run records by key (`runKey`). */
  readonly runs = new Map<string, RunRecord>();
  /** A FAILED run's parked invocations by run key (the record's `rd`), and why a run cannot be redriven (`nr`). */
  readonly redo = new Map<string, Set<string>>();
  readonly noRedrive = new Map<string, string>();
  /** Parked items by key (`parkKey`). */
  readonly parked = new Map<string, Parked>();
  /** Run history by counter key (`historyKey`): the counter, and entries by sequence number. */
  readonly history = new Map<string, { n: number; entries: Map<number, HistoryItem> }>();
  readonly calls: Record<string, number> = {};
  /** Writes of any kind (to check that nothing was written). */
  writes = 0;

  private count(op: string, write = false): void {
    this.calls[op] = (this.calls[op] ?? 0) + 1;
    if (write) this.writes++;
    if (this.options.expires) this.deleteExpired(Math.floor(Date.now() / 1000));
  }

  private deleteExpired(now: number): void {
    for (const [key, ttl] of this.ttls) {
      if (ttl >= now) continue;
      this.ttls.delete(key);
      this.checkpoints.delete(key);
      this.shards.delete(key);
      this.runs.delete(key);
      this.expired.push(key);
    }
  }

  async getCheckpoint(key: string): Promise<Checkpoint | undefined> {
    this.count('getCheckpoint');
    return this.checkpoints.get(key);
  }

  async putCheckpoint(key: string, json: string, catchIndex: number | undefined, ttl: number): Promise<Checkpoint | undefined> {
    this.count('putCheckpoint', true);
    const old = this.checkpoints.get(key);
    if (old) return { ...old, ttl: this.ttls.get(key) };
    this.checkpoints.set(key, { json, ...(catchIndex === undefined ? {} : { catchIndex }) });
    this.ttls.set(key, ttl);
    this.count('committed');
    return undefined;
  }

  async getCheckpoints(keys: readonly string[]): Promise<Map<string, Checkpoint>> {
    this.count('getCheckpoints');
    const out = new Map<string, Checkpoint>();
    for (const k of keys) {
      const c = this.checkpoints.get(k);
      if (c) out.set(k, c);
    }
    return out;
  }

  /** One round trip; always consistent here (`consistent` is counted: `read` or `eventualRead`). */
  async read(checkpoints: readonly string[], shards: readonly string[], { consistent, stateAttempts = [], run }: ReadOptions): Promise<ReadSet> {
    this.count(consistent ? 'read' : 'eventualRead');
    const record = run && this.runs.get(runKey(run));
    const status = record?.status;
    const out = {
      ...(record?.deadline === undefined ? {} : { runDeadline: record.deadline }),
      checkpoints: new Map<string, Checkpoint>(),
      shards: new Map<string, readonly number[]>(),
      stateFailures: new Map<string, StateFailure>(),
      runEnded: status !== undefined && status !== 'RUNNING',
      runRedrivable: redrivable(status),
    };
    for (const j of stateAttempts) {
      const f = this.stateFailures.get(j);
      if (f) out.stateFailures.set(j, f);
    }
    for (const k of checkpoints) {
      const c = this.checkpoints.get(k);
      if (c) out.checkpoints.set(k, c);
    }
    for (const k of shards) {
      const sh = this.shards.get(k);
      if (sh) out.shards.set(k, [...sh.a]);
    }
    return out;
  }

  async extendTtl(key: string, ttl: number): Promise<void> {
    this.count('extendTtl', true);
    const old = this.ttls.get(key);
    if (old !== undefined && old < ttl) this.ttls.set(key, ttl);
  }

  async addToShard(key: string, element: number, expected: number, ttl: number): Promise<{ count: number; expected: number; ttl?: number }> {
    this.count('addToShard', true);
    let s = this.shards.get(key);
    if (!s) {
      s = { a: new Set(), n: expected };
      this.shards.set(key, s);
      this.ttls.set(key, ttl);
    }
    s.n = expected;
    s.a.add(element);
    return { count: s.a.size, expected: s.n, ttl: this.ttls.get(key) };
  }

  async renewShard(key: string, ttl: number, claim?: RenewalClaim): Promise<ShardRenewal> {
    this.count('renewShard', true);
    let s = this.shards.get(key);
    if (!s && !claim) return { renewed: false };
    // A claim creates a root that no arrival reached yet (its expected count comes with the first arrival).
    s ??= { a: new Set(), n: 0 };
    this.shards.set(key, s);
    const old = this.ttls.get(key) ?? 0;
    if (claim ? !(old < claim.due || s.rb === claim.by) : !(old < ttl)) return { renewed: false, ttl: old };
    this.ttls.set(key, ttl);
    if (claim) s.rb = claim.by;
    return { renewed: true, arrivals: [...s.a] };
  }

  async startRun(run: RunRef, startedAt: string, ttl: number, deadline?: number, deployment?: string): Promise<{ created: boolean; startedAt?: string }> {
    this.count('startRun', true);
    const existing = this.runs.get(runKey(run));
    if (existing) return { created: false, startedAt: existing.startedAt };
    this.runs.set(runKey(run), { status: 'RUNNING', startedAt, ...(deadline === undefined ? {} : { deadline }), ...(deployment === undefined ? {} : { deployment }) });
    this.ttls.set(runKey(run), ttl);
    return { created: true };
  }

  async finishRun(run: RunRef, end: RunEnd, finishedAt: string, ttl: number): Promise<boolean> {
    this.count('finishRun', true);
    const r = this.runs.get(runKey(run));
    if (r && r.status !== 'RUNNING') return false;
    // As the table's conditional update: past its deadline the run times out instead.
    if (r?.deadline !== undefined && r.deadline <= Date.now()) {
      await this.interruptRun(run, runTimedOutAt(r.deadline, r.startedAt), finishedAt);
      return false;
    }
    const { redrive, ...ended } = end.status === 'FAILED' ? end : { ...end, redrive: undefined };
    this.runs.set(runKey(run), { ...r, ...ended, finishedAt });
    this.ttls.set(runKey(run), ttl);
    if (redrive && 'never' in redrive) this.noRedrive.set(runKey(run), redrive.never);
    else if (redrive) this.redo.set(runKey(run), new Set([...(this.redo.get(runKey(run)) ?? []), redrive.redo]));
    return true;
  }

  async interruptRun(run: RunRef, end: RunInterruption, finishedAt: string): Promise<boolean> {
    this.count('interruptRun', true);
    const r = this.runs.get(runKey(run));
    if (r?.status !== 'RUNNING') return false;
    // As the table's conditional update: TIMED_OUT for a deadline only while the record has it.
    if (end.deadline !== undefined && r.deadline !== end.deadline) return false;
    this.runs.set(runKey(run), { ...r, ...end, finishedAt });
    return true;
  }

  async putParked(run: RunRef, invocation: string, parked: Parked, ttl: number): Promise<void> {
    this.count('putParked', true);
    const resentBy = this.parked.get(parkKey(run, invocation))?.resentBy;
    this.parked.set(parkKey(run, invocation), { ...parked, ...(resentBy === undefined ? {} : { resentBy }) });
    this.ttls.set(parkKey(run, invocation), ttl);
  }

  /** No redrive here (the client redrives on DynamoDB): only what a test marked on a parked item. */
  async getResent(run: RunRef, invocation: string): Promise<{ readonly redrives: number; readonly resentBy: number; readonly deployment?: string }> {
    this.count('getResent');
    const deployment = this.runs.get(runKey(run))?.deployment;
    return { redrives: 0, resentBy: this.parked.get(parkKey(run, invocation))?.resentBy ?? 0, ...(deployment === undefined ? {} : { deployment }) };
  }

  async parkInRun(run: RunRef, invocation: string): Promise<'parked' | 'running' | 'ended'> {
    this.count('parkInRun', true);
    const status = this.runs.get(runKey(run))?.status;
    if (!redrivable(status) || this.noRedrive.has(runKey(run))) return status === 'RUNNING' ? 'running' : 'ended';
    this.redo.set(runKey(run), new Set([...(this.redo.get(runKey(run)) ?? []), invocation]));
    return 'parked';
  }

  async rejectRun(run: RunRef, error: Required<RunError>, at: string, _ttl: number): Promise<boolean> {
    this.count('rejectRun', true);
    if (this.runs.has(runKey(run))) return false;
    this.runs.set(runKey(run), { status: 'FAILED', startedAt: at, finishedAt: at, error });
    return true;
  }

  async failState(join: string, failure: { error: string; cause: string; by: string }, ttl: number): Promise<StateFailure> {
    this.count('failState', true);
    const old = this.stateFailures.get(join);
    if (old) return old;
    this.stateFailures.set(join, { ...failure });
    this.ttls.set(stateFailureKey(join), ttl);
    return { ...failure };
  }

  async getStateFailure(join: string): Promise<StateFailure | undefined> {
    this.count('getStateFailure');
    return this.stateFailures.get(join);
  }

  async setStateRetries(join: string, retries: readonly number[]): Promise<void> {
    this.count('setStateRetries', true);
    const old = this.stateFailures.get(join);
    if (old) this.stateFailures.set(join, { ...old, retries: [...retries] });
  }

  async nextHistorySeq(run: RunRef, _ttl: number): Promise<number> {
    this.count('nextHistorySeq', true);
    const h = this.history.get(historyKey(run)) ?? { n: 0, entries: new Map() };
    this.history.set(historyKey(run), h);
    return ++h.n;
  }

  async putHistoryEntry(run: RunRef, seq: number, item: HistoryItem, _ttl: number): Promise<void> {
    this.count('putHistoryEntry', true);
    // As DynamoDB stores it: undefined attributes are not written.
    this.history.get(historyKey(run))?.entries.set(seq, JSON.parse(JSON.stringify(item)) as HistoryItem);
  }

  /** The run record of the one workflow that has a run `workflowId` (undefined when none has; throws when several have). */
  runOf(workflowId: string): RunRecord | undefined {
    return this.only(this.runs, workflowId, 'run');
  }

  /** A run's history entries in sequence order (gaps skipped), with their `seq`; the run as in `runOf`. */
  historyOf(workflowId: string): (HistoryItem & { seq: number })[] {
    const entries = this.only(this.history, workflowId, 'history')?.entries ?? new Map<number, HistoryItem>();
    return [...entries].sort(([a], [b]) => a - b).map(([seq, item]) => ({ seq, ...item }));
  }

  private only<V>(items: Map<string, V>, workflowId: string, kind: 'run' | 'history'): V | undefined {
    const found = [...items].filter(([key]) => {
      const k = parseKey(key);
      return k?.kind === kind && k.workflowId === workflowId;
    });
    if (found.length > 1) throw new Error(`runs '${workflowId}' of several workflows: ${found.map(([key]) => key).join(', ')}`);
    return found[0]?.[1];
  }
}
