/**
 * What the sweeper reads and writes in the workflow table: the workflow's
 * deployment records, and the runs started while a deployment was current.
 * runtime/deployments/dynamodb-records.ts implements it; tests use fakes.
 */
import type { DeploymentFunction, DeploymentRecord, Parked, RedriveState, RunRecord } from '../contract/table';

/** A run record as the sweeper judges it: its status and deployment, and what a redrive of it would resume. */
export interface RunView {
  readonly workflowId: string;
  readonly record: RunRecord;
  readonly redrive: RedriveState;
}

export interface DeploymentRecords {
  /**
   * Creates the workflow's envelope key (32 random bytes) unless it has one:
   * true when this call created it. A redeploy keeps the key, so envelopes in
   * flight stay valid (runtime/contract/table/envelope-key.ts).
   */
  createEnvelopeKey(): Promise<boolean>;
  /** Every deployment record of the workflow, the earliest activated first. */
  list(): Promise<DeploymentRecord[]>;
  /** The record of `deployment` (undefined: none). */
  get(deployment: string): Promise<DeploymentRecord | undefined>;
  /**
   * Lists `record` and writes it unless the workflow has a record of that
   * deployment not yet removed: then that record is returned, unchanged.
   */
  put(record: DeploymentRecord): Promise<DeploymentRecord | undefined>;
  /**
   * The recorded `deployment` is current again (if it was superseded), its
   * aliases naming `functions`, after `replaced`; false when the sweeper
   * began removing it.
   */
  reactivate(deployment: string, at: string, functions: readonly DeploymentFunction[], replaced: readonly DeploymentFunction[]): Promise<boolean>;
  /** The current `deployment` is superseded at `at`; false when it was already. */
  supersede(deployment: string, at: string): Promise<boolean>;
  /** The sweeper begins removing the superseded `deployment`; false when it had begun already. */
  markRemoving(deployment: string, at: string): Promise<boolean>;
  /** The deployment's resources are gone; the record expires at `ttl` (epoch s). */
  markRemoved(deployment: string, at: string, ttl: number): Promise<boolean>;
  /** The runs started after `after` and before `before` (ISO-8601, both exclusive), a page at a time. */
  runsStarted(after: string, before: string): AsyncIterable<readonly RunView[]>;
  /** The parked invocations `names` of run `workflowId`, in that order (undefined: no such item). */
  parked(workflowId: string, names: readonly string[]): Promise<(Parked | undefined)[]>;
}
