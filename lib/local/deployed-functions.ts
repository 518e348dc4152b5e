/**
 * The functions the local engine has deployed, kept as Lambda keeps them
 * across deployments: each deploy publishes a new version of every function
 * whose code is new, the versions of earlier deployments stay (the construct
 * retains them), and aliases name versions, so a run pinned to an older
 * deployment's aliases keeps running its code. The unqualified name
 * (`$LATEST`) follows the newest code. Aliases come from the template
 * (`publish`, the entry's `live` last in `moveLive`) or from Lambda's API
 * (CreateAlias and the rest, which the deployment custom resource calls:
 * lambda-management.ts), and so do the async settings of each qualifier.
 */
import { LIVE_ALIAS } from '../../runtime/contract/ir';
import { DEFAULT_ASYNC, LATEST, qualifiedRef, type AsyncInvokeConfig, type LocalApp, type LocalFunction } from './assembly';

/** What Lambda's API answers a call that names something wrong. */
export class LambdaApiError extends Error {
  constructor(readonly statusCode: number, readonly code: 'ResourceNotFoundException' | 'ResourceConflictException' | 'InvalidParameterValueException', message: string) {
    super(message);
  }
}

interface State {
  /** By name: the `$LATEST` code. */
  readonly latest: Map<string, LocalFunction>;
  /** By `name:<number>`: each published version's code. */
  readonly versions: Map<string, LocalFunction>;
  /** By `name:<alias>`: the version number it names. */
  readonly aliases: Map<string, string>;
  /** By qualified ref (`name` for `$LATEST`): the async settings set for that qualifier. */
  readonly asyncConfigs: Map<string, AsyncInvokeConfig>;
  /** Per function: the last version number published. */
  readonly lastVersion: Map<string, number>;
  /** Per function and what its code was published for: the version number. */
  readonly versionOf: Map<string, number>;
}

const emptyState = (): State => ({ latest: new Map(), versions: new Map(), aliases: new Map(), asyncConfigs: new Map(), lastVersion: new Map(), versionOf: new Map() });

export class DeployedFunctions {
  /**
   * Every function by name (`$LATEST`) and by qualified name (`name:<alias>`,
   * `name:<version>`), as `LocalApp.functions`: the map the emulator resolves
   * invocations in, kept in step with every change.
   */
  readonly functions = new Map<string, LocalFunction>();
  private state = emptyState();

  /**
   * Publishes the app's functions: `$LATEST` runs their new code, each
   * function whose code is new gets a new version, and every alias of the
   * template but `live` names it, with the template's async settings. Returns
   * what undoes all of it, and whatever else changed since (a deploy that fails rolls back).
   */
  publish(app: LocalApp): () => void {
    const before = copy(this.state);
    const s = this.state;
    const versions = new Map<string, string>();
    for (const fn of app.functions.values()) {
      if (fn.qualifier === LATEST) {
        s.latest.set(fn.functionName, fn);
        s.asyncConfigs.set(fn.functionName, fn.async);
      } else if (fn.qualifier === fn.version) {
        const version = this.versionFor(fn);
        versions.set(fn.functionName, version);
        s.versions.set(qualifiedRef(fn.functionName, version), { ...fn, qualifier: version, version });
      }
    }
    for (const fn of app.functions.values()) {
      if (fn.qualifier === LATEST || fn.qualifier === fn.version || fn.qualifier === LIVE_ALIAS) continue;
      const version = versions.get(fn.functionName);
      if (version === undefined) continue;
      s.aliases.set(qualifiedRef(fn.functionName, fn.qualifier), version);
      s.asyncConfigs.set(qualifiedRef(fn.functionName, fn.qualifier), fn.async);
    }
    this.refresh();
    return () => {
      this.state = before;
      this.refresh();
    };
  }

  /** Points each `live` alias of the template at the version `publish` published for it. */
  moveLive(app: LocalApp): void {
    for (const fn of app.functions.values()) {
      const version = fn.qualifier === LIVE_ALIAS ? this.publishedVersion(fn) : undefined;
      if (version === undefined) continue;
      this.state.aliases.set(qualifiedRef(fn.functionName, LIVE_ALIAS), version);
      this.state.asyncConfigs.set(qualifiedRef(fn.functionName, LIVE_ALIAS), fn.async);
    }
    this.refresh();
  }

  /** The version number published for the function's code (a function of a published app), if any. */
  publishedVersion(fn: LocalFunction): string | undefined {
    const version = this.state.versionOf.get(codeKey(fn));
    return version === undefined ? undefined : String(version);
  }

  /** The version an alias names (GetAlias). */
  alias(functionName: string, alias: string): string {
    this.function(functionName);
    const version = this.state.aliases.get(qualifiedRef(functionName, alias));
    if (version === undefined) throw notFound(`Alias not found: ${functionName}:${alias}`);
    return version;
  }

  /** CreateAlias (`create`) or UpdateAlias: the alias names `version` from now on. */
  setAlias(functionName: string, alias: string, version: string, create: boolean): void {
    this.function(functionName);
    const key = qualifiedRef(functionName, alias);
    if (create && this.state.aliases.has(key)) throw new LambdaApiError(409, 'ResourceConflictException', `Alias already exists: ${functionName}:${alias}`);
    if (!create && !this.state.aliases.has(key)) throw notFound(`Alias not found: ${functionName}:${alias}`);
    if (!this.state.versions.has(qualifiedRef(functionName, version))) throw notFound(`Function not found: ${functionName}:${version}`);
    this.state.aliases.set(key, version);
    this.refresh();
  }

  /** DeleteAlias (its async settings go with it, as in Lambda). */
  deleteAlias(functionName: string, alias: string): void {
    const key = qualifiedRef(functionName, alias);
    this.state.aliases.delete(key);
    this.state.asyncConfigs.delete(key);
    this.refresh();
  }

  /** PutFunctionEventInvokeConfig. */
  putAsyncConfig(functionName: string, qualifier: string | undefined, config: AsyncInvokeConfig): void {
    const key = qualifiedRef(functionName, qualifier);
    if (!this.functions.has(key)) throw notFound(`Function not found: ${key}`);
    this.state.asyncConfigs.set(key, config);
    this.refresh();
  }

  /** DeleteFunctionEventInvokeConfig. */
  deleteAsyncConfig(functionName: string, qualifier: string | undefined): void {
    const key = qualifiedRef(functionName, qualifier);
    if (!this.state.asyncConfigs.delete(key)) throw notFound(`The function ${key} doesn't have an EventInvokeConfig`);
    this.refresh();
  }

  /** DeleteFunction: one version (refused while an alias names it), or the function with every version and alias. */
  deleteFunction(functionName: string, version: string | undefined): void {
    this.function(functionName);
    const s = this.state;
    if (version !== undefined && version !== LATEST) {
      const key = qualifiedRef(functionName, version);
      if (!s.versions.has(key)) throw notFound(`Function not found: ${key}`);
      const named = [...s.aliases].find(([alias, v]) => v === version && alias.startsWith(`${functionName}:`));
      if (named) throw new LambdaApiError(409, 'ResourceConflictException', `Unable to delete version because the following aliases reference it: [${named[0].slice(functionName.length + 1)}]`);
      s.versions.delete(key);
      s.asyncConfigs.delete(key);
    } else {
      s.latest.delete(functionName);
      for (const map of [s.versions, s.aliases, s.asyncConfigs] as const) {
        for (const key of [...map.keys()]) if (key === functionName || key.startsWith(`${functionName}:`)) map.delete(key);
      }
    }
    this.refresh();
  }

  private function(functionName: string): void {
    if (!this.state.latest.has(functionName)) throw notFound(`Function not found: ${functionName}`);
  }

  /** Rebuilds `functions` from the versions, aliases and async settings. */
  private refresh(): void {
    const s = this.state;
    const asyncOf = (key: string): AsyncInvokeConfig => s.asyncConfigs.get(key) ?? DEFAULT_ASYNC;
    this.functions.clear();
    for (const [name, fn] of s.latest) this.functions.set(name, { ...fn, async: asyncOf(name) });
    for (const [key, fn] of s.versions) this.functions.set(key, { ...fn, async: asyncOf(key) });
    for (const [key, version] of s.aliases) {
      const name = key.slice(0, key.lastIndexOf(':'));
      const target = s.versions.get(qualifiedRef(name, version));
      if (target) this.functions.set(key, { ...target, qualifier: key.slice(name.length + 1), async: asyncOf(key) });
    }
  }

  /** The version number of the function's code: the one already published for it, else the next. */
  private versionFor(fn: LocalFunction): string {
    const key = codeKey(fn);
    const known = this.state.versionOf.get(key);
    if (known !== undefined) return String(known);
    const next = (this.state.lastVersion.get(fn.functionName) ?? 0) + 1;
    this.state.lastVersion.set(fn.functionName, next);
    this.state.versionOf.set(key, next);
    return String(next);
  }
}

function copy(s: State): State {
  return {
    latest: new Map(s.latest),
    versions: new Map(s.versions),
    aliases: new Map(s.aliases),
    asyncConfigs: new Map(s.asyncConfigs),
    lastVersion: new Map(s.lastVersion),
    versionOf: new Map(s.versionOf),
  };
}

const notFound = (message: string): LambdaApiError => new LambdaApiError(404, 'ResourceNotFoundException', message);

/** What a function's published version is for: its deployment (the code and settings of everything a run depends on), else its asset. */
const codeKey = (fn: LocalFunction): string => `${fn.functionName}\0${fn.deployment ?? fn.assetDir}`;
