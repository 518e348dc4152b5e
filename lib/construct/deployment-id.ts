import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/**
 * unum-cdk's version, from the package's own package.json (the repository's,
 * or the installed package's above `dist/`): a new runtime is a new deployment
 * even where no bundle shows it (a stack excluded from bundling).
 */
const PACKAGE_VERSION = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'unum-cdk' && pkg.version !== undefined) return pkg.version;
    }
    if (path.dirname(dir) === dir) throw new Error(`unum-cdk's package.json not found above ${__dirname}`);
  }
})();

/** What one function of a workflow contributes to the deployment id. */
export interface DeploymentFunction {
  /** The node, or the part of the workflow (failure recorder, task-response function). */
  readonly name: string;
  /**
   * What the function is told besides its code: a node's IR, the recorder's
   * spec, with `deployment` empty and function names unqualified (the id
   * cannot depend on itself).
   */
  readonly spec: unknown;
  /** Digest of the function's bundle (the esbuild output); undefined in a stack excluded from bundling. */
  readonly bundle?: string;
  /**
   * Memory, timeout, runtime, architecture, environment, async settings,
   * resolved to CloudFormation JSON (a token becomes its stable `Ref`/`Fn::GetAtt`).
   */
  readonly settings: unknown;
}

/**
 * The deployment id (runtime/contract/ir `DEPLOYMENT_ID_PATTERN`): a hash of everything a run
 * depends on, so that two synths of the same app give the same id and any
 * change a run could notice (a node's IR, a handler's code, a function's
 * settings, the runtime's version) gives a new one. Anything derived from the
 * id itself (qualified names, the per-deployment roles) is left out.
 */
export function deploymentId(functions: readonly DeploymentFunction[], runtimeVersion: string = PACKAGE_VERSION): string {
  const sorted = [...functions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const digest = createHash('sha256').update(canonicalJson({ runtimeVersion, functions: sorted })).digest('hex');
  return `d${digest.slice(0, 20)}`;
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  );
}
