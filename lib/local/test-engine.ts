/**
 * The local engine for a test suite (jest, node:test, ...): start it once for
 * a synthesized app, run workflows on it and assert on their outcome and
 * timeline, optionally under a fault seed; stop it at the end.
 */
import type { Json } from '../../runtime/contract/ir';
import { LocalEngine, type LocalEngineOptions } from './engine';
import { UnumLocalError } from './errors';
import { isCloudAssembly } from './project';
import { runWorkflow, type LocalRun, type LocalRunOptions } from './run-workflow';

/** Options of `startLocalEngine`. */
export interface StartLocalEngineOptions extends LocalEngineOptions {
  /** The synthesized app: its cloud assembly directory. @default 'cdk.out' */
  readonly app?: string;
}

/** A running local engine with a one-call `run`, for tests. */
export class LocalTestEngine {
  /** Wraps a running engine (`startLocalEngine` starts one and wraps it). */
  constructor(
    /** The engine itself: its workflows, endpoints and SDK environment. */
    readonly engine: LocalEngine,
  ) {}

  /**
   * Starts a run of `workflow` on `input` and resolves when it has finished
   * and nothing is left running for it, with its status, result or error and
   * the timeline of its executions. A FAILED run resolves too; a run that does
   * not finish within `timeoutMs` rejects.
   */
  run(workflow: string, input: Json, options: LocalRunOptions = {}): Promise<LocalRun> {
    return runWorkflow(this.engine, workflow, input, options);
  }

  /** Stops the engine and everything it started. */
  stop(): Promise<void> {
    return this.engine.stop();
  }
}

/**
 * Starts the local engine for the cloud assembly in `options.app` (synthesize
 * the app first: `cdk synth`, or `app.synth()` in the test).
 *
 * ```ts
 * const engine = await startLocalEngine({ app: 'cdk.out' });
 * afterAll(() => engine.stop());
 * test('orders', async () => {
 *   const run = await engine.run('Orders', { id: 1 });
 *   expect(run.result).toEqual({ shipped: true });
 * });
 * ```
 */
export async function startLocalEngine(options: StartLocalEngineOptions = {}): Promise<LocalTestEngine> {
  const { app = 'cdk.out', ...engineOptions } = options;
  if (!isCloudAssembly(app)) throw new UnumLocalError(`${app} is not a cloud assembly (no manifest.json): synthesize the app first (npx cdk synth, or app.synth())`);
  return new LocalTestEngine(await LocalEngine.fromCloudAssembly(app, engineOptions));
}
