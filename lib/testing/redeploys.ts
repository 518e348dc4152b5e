/**
 * The deploys a redeploy campaign makes on its engine while runs are in
 * flight: each a shape of the app (a synth of it), begun, held half done for
 * a while (its versions and aliases there, `live` not moved), then finished.
 * The engine takes them one at a time, as CloudFormation updates a stack.
 */
import type { LocalEngine } from '../local/engine';
import type { Redeploy } from './redeploy-plan';

/** One shape of the app: a synth of it (one cloud assembly, or several as the engine was started with). */
export interface RedeployShape {
  readonly name: string;
  readonly dir: string | readonly string[];
}

/** A deploy that failed, and which seed asked for it. */
export interface RedeployFailure {
  readonly what: string;
  readonly error: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class Redeploys {
  /** Deploys finished so far: a run during which this grew had a deploy finish while it ran. */
  finished = 0;
  readonly failures: RedeployFailure[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly engine: LocalEngine,
    readonly shapes: readonly RedeployShape[],
  ) {}

  shapeName = (i: number): string => this.shapes[i]?.name ?? `shape #${i}`;

  /** Deploys the shape `redeploy` names after `afterMs`, for `by` (reported with a failure); resolves when done, failed or not. */
  request(redeploy: Redeploy, afterMs: number, by: string): Promise<void> {
    const shape = this.shapes[redeploy.shape];
    const deploying = (async () => {
      if (!shape) throw new Error(`no shape #${redeploy.shape} (${this.shapes.length} shapes)`);
      if (afterMs > 0) await sleep(afterMs);
      const pending = await this.engine.beginDeploy(shape.dir);
      if (redeploy.holdMs > 0) await sleep(redeploy.holdMs);
      await pending.finish();
      this.finished++;
    })()
      .catch((err: unknown) => { this.failures.push({ what: `${by} (deploy of ${this.shapeName(redeploy.shape)})`, error: err instanceof Error ? err.message : String(err) }); })
      .finally(() => this.inFlight.delete(deploying));
    this.inFlight.add(deploying);
    return deploying;
  }

  /** Resolves once every deploy asked for so far (and any they led to) is done. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
