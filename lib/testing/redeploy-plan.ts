/**
 * The redeploy fault (issue 34): a seed's random plan, plus one or two
 * deploys of a shape of the app drawn from the seed, each at a point of the
 * run drawn from the seed too: when its k-th execution begins, or some
 * milliseconds after its first. The deploy itself is the engine's, global:
 * every run in flight meets it, not only the seed's (`Redeploys`). A shape
 * may be the one live already (a deploy of identical content) or an earlier
 * one (a revert).
 */
import { createHash } from 'crypto';
import type { CallFault, CallInfo, EventFault, ExecutionInfo, FaultPlan } from '../local/fault-plan';
import type { RandomPlan } from './schedule';

/** One deploy a seed asks for. */
export interface Redeploy {
  /** Index of the shape to deploy (`RedeployShape`s of the campaign). */
  readonly shape: number;
  /** When: as the run's k-th execution (1-based, counted as the fault proxy sees them) begins, or this long after its first. */
  readonly at: { readonly execution: number } | { readonly afterMs: number };
  /** How long the deploy stays half done (new versions and aliases there, `live` not moved yet). */
  readonly holdMs: number;
}

/** Upper bounds of the drawn points: a run of the campaign makes a few to a few dozen executions over a second or a few. */
const MAX_EXECUTION = 8;
const MAX_AFTER_MS = 1500;
const MAX_HOLD_MS = 300;

/** A uniform number in [0, 1) from the seed and a key: the same seed draws the same redeploys. */
function draw(seed: number, key: string): number {
  return createHash('sha256').update(`${seed}|redeploy|${key}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** The redeploys of a seed over `shapes` shapes: one, or two for a third of the seeds. */
export function redeploysForSeed(seed: number, shapes: number): Redeploy[] {
  const count = draw(seed, 'count') < 1 / 3 ? 2 : 1;
  return Array.from({ length: count }, (_, i) => ({
    shape: Math.floor(draw(seed, `shape|${i}`) * shapes),
    at: draw(seed, `trigger|${i}`) < 0.5 ? { execution: 1 + Math.floor(draw(seed, `execution|${i}`) * MAX_EXECUTION) } : { afterMs: Math.floor(draw(seed, `after|${i}`) * MAX_AFTER_MS) },
    holdMs: Math.floor(draw(seed, `hold|${i}`) * MAX_HOLD_MS),
  }));
}

export const describeRedeploy = (r: Redeploy, shapeName: (i: number) => string): string =>
  `deploy ${shapeName(r.shape)} ${'execution' in r.at ? `at execution ${r.at.execution}` : `${r.at.afterMs} ms after the first execution`}, half done for ${r.holdMs} ms`;

/**
 * A seed's random plan (its call and event faults, unchanged) that also asks
 * for its redeploys, through `request`, when the run reaches their points.
 */
export class RedeployPlan implements FaultPlan {
  private readonly executions = new Set<string>();
  private readonly requested: Array<Promise<void>> = [];

  constructor(
    readonly base: RandomPlan,
    readonly redeploys: readonly Redeploy[],
    /** Starts a deploy (`Redeploys.request`); a delayed one waits `afterMs` first. Must not block: it is called from inside a call. */
    private readonly request: (redeploy: Redeploy, afterMs: number) => Promise<void>,
  ) {}

  callFault(exec: ExecutionInfo, call: CallInfo): CallFault {
    if (!this.executions.has(exec.executionId)) this.began(exec.executionId);
    return this.base.callFault(exec, call);
  }

  eventFault(functionName: string, identity: string): EventFault {
    return this.base.eventFault(functionName, identity);
  }

  rerunSucceeded(exec: ExecutionInfo): boolean {
    return this.base.rerunSucceeded(exec);
  }

  /** Every fault injected so far, by kind; `redeploy`: the deploys this run asked for. */
  counts(): Readonly<Record<string, number>> {
    return { ...this.base.counts(), redeploy: this.requested.length };
  }

  /**
   * Resolves once the deploys this run asked for are done: a seed that waits
   * for them before the next one starts keeps the deploys from piling up
   * behind the runs (the engine makes one at a time).
   */
  async deployed(): Promise<void> {
    await Promise.all(this.requested);
  }

  private began(executionId: string): void {
    this.executions.add(executionId);
    const n = this.executions.size;
    for (const r of this.redeploys) {
      const due = 'execution' in r.at ? r.at.execution === n : n === 1;
      if (!due) continue;
      this.requested.push(this.request(r, 'afterMs' in r.at ? r.at.afterMs : 0));
    }
  }
}
