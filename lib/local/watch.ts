/**
 * Keeps a running engine on the app's newest synth, as `cdk watch` keeps a
 * stack on its newest code: each time the cloud assembly's manifest.json is
 * written again (a `cdk synth`, here or in another shell), the assembly is
 * deployed onto the engine while runs are in flight; with the app directory
 * given, a change of the app's sources (cdk.out, node_modules and dotfiles
 * aside) synthesizes it again first. Each deploy runs from a copy of the
 * assembly (`snapshot`): the next synth overwrites cdk.out, and the versions
 * of the earlier deployments must keep their bundles while their runs finish.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { LocalEngine } from './engine';
import { synthesize } from './synth';

/** How long a burst of file events settles before it counts as one change (an editor's save, a synth's writes). */
const SETTLE_MS = 300;

export interface AppWatchOptions {
  /** The cloud assembly watched (the app's cdk.out). */
  readonly assembly: string;
  /** The CDK app (its cdk.json): synthesized into `assembly` when its sources change. @default the sources are not watched */
  readonly appDir?: string;
  /** Says what was synthesized and deployed, and which deployment is live. */
  readonly log: (line: string) => void;
}

/** A copy of the assembly in `dir` under `parent`, named by `n`: what a deploy runs from. */
function snapshot(dir: string, parent: string, n: number): string {
  const copy = path.join(parent, `deploy-${n}`);
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

export class AppWatcher {
  /** The copy of the assembly to start the engine from (`watch` deploys the later ones). */
  readonly first: string;
  private readonly watchers: fs.FSWatcher[] = [];
  private readonly snapshots = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-local-deploys-'));
  private engine?: LocalEngine;
  private deploys = 0;
  private lastManifest: number;
  private synthesizing?: Promise<void>;
  private synthAgain = false;
  private deploying: Promise<void> = Promise.resolve();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: AppWatchOptions) {
    this.lastManifest = manifestTime(options.assembly);
    this.first = snapshot(options.assembly, this.snapshots, 0);
  }

  /** Starts watching: the engine (started from `first`) gets each new synth. */
  watch(engine: LocalEngine): void {
    this.engine = engine;
    const assembly = path.resolve(this.options.assembly);
    this.watchers.push(fs.watch(assembly, (_event, file) => {
      if (file === 'manifest.json') this.settle('manifest', () => this.deployIfNew());
    }));
    const appDir = this.options.appDir;
    if (appDir === undefined) return;
    this.watchers.push(fs.watch(appDir, { recursive: true }, (_event, file) => {
      if (file !== null && isSource(path.resolve(appDir, file), appDir, assembly)) this.settle('sources', () => this.resynthesize(appDir, assembly));
    }));
  }

  /** Resolves when the deploys begun so far have ended (each logs its outcome). */
  settled(): Promise<void> {
    return this.deploying;
  }

  /** Stops watching; `removeCopies` once the engine has stopped: its versions run from them. */
  stop(): void {
    this.stopped = true;
    for (const w of this.watchers) w.close();
    for (const t of this.timers.values()) clearTimeout(t);
  }

  removeCopies(): void {
    fs.rmSync(this.snapshots, { recursive: true, force: true });
  }

  private settle(what: string, then: () => void): void {
    clearTimeout(this.timers.get(what));
    this.timers.set(what, setTimeout(() => {
      this.timers.delete(what);
      if (!this.stopped) then();
    }, SETTLE_MS));
  }

  private resynthesize(appDir: string, assembly: string): void {
    if (this.synthesizing) {
      this.synthAgain = true;
      return;
    }
    this.options.log(`sources changed: synthesizing ${path.relative(process.cwd(), appDir) || '.'} ...`);
    this.synthesizing = synthesize({ appDir, outDir: assembly })
      .then(() => undefined, (err: unknown) => this.options.log(`synth failed, the engine keeps the deployment it has: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.synthesizing = undefined;
        if (this.synthAgain && !this.stopped) {
          this.synthAgain = false;
          this.resynthesize(appDir, assembly);
        }
      });
  }

  /** Deploys the assembly when its manifest is newer than the last one deployed, one deploy at a time. */
  private deployIfNew(): void {
    this.deploying = this.deploying.then(async () => {
      const written = manifestTime(this.options.assembly);
      const engine = this.engine;
      if (!engine || this.stopped || written === this.lastManifest || written === 0) return;
      this.lastManifest = written;
      const shown = path.relative(process.cwd(), this.options.assembly) || '.';
      try {
        const copy = snapshot(this.options.assembly, this.snapshots, ++this.deploys);
        const deployments = await engine.deploy(copy);
        const live = Object.entries(deployments).map(([workflow, d]) => `${workflow} ${d}`).join(', ');
        this.options.log(`deployed the new synth of ${shown}: live now ${live || '(no workflow)'}; runs in flight finish on the deployment they started on`);
      } catch (err) {
        this.options.log(`deploying the new synth of ${shown} failed, the engine keeps the deployment it has: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }
}

/** When manifest.json was last written (0: none). */
function manifestTime(assembly: string): number {
  try {
    return fs.statSync(path.join(assembly, 'manifest.json')).mtimeMs;
  } catch {
    return 0;
  }
}

/** A file of the app's sources: not under the assembly, node_modules or a dot directory. */
function isSource(file: string, appDir: string, assembly: string): boolean {
  if (file === assembly || file.startsWith(`${assembly}${path.sep}`)) return false;
  return !path.relative(appDir, file).split(path.sep).some((part) => part === 'node_modules' || part === 'cdk.out' || part.startsWith('.'));
}
