/** In-memory stand-ins for the sweeper's ports, with the conditions of the real ones. */
import type { DeploymentFunction, DeploymentRecord, Parked, RunRecord } from '../../runtime/contract/table';
import type { AsyncInvokeSettings, DeploymentResources } from '../../runtime/ports/deployment-resources';
import type { DeploymentRecords, RunView } from '../../runtime/deployments/records';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class FakeRecords implements DeploymentRecords {
  readonly deployments = new Map<string, Mutable<DeploymentRecord> & { ttl?: number }>();
  readonly runs: { startedAt: string; view: RunView }[] = [];
  readonly parkedItems = new Map<string, Parked>();
  /** The windows `runsStarted` was asked for. */
  readonly windows: { after: string; before: string }[] = [];

  /** Whether the workflow has its envelope key (the real one is random bytes in the table). */
  envelopeKey = false;

  async createEnvelopeKey(): Promise<boolean> {
    const created = !this.envelopeKey;
    this.envelopeKey = true;
    return created;
  }

  async list(): Promise<DeploymentRecord[]> {
    return [...this.deployments.values()].map((d) => ({ ...d })).sort((a, b) => a.activatedAt.localeCompare(b.activatedAt));
  }

  async get(deployment: string): Promise<DeploymentRecord | undefined> {
    const d = this.deployments.get(deployment);
    return d && { ...d };
  }

  async put(record: DeploymentRecord): Promise<DeploymentRecord | undefined> {
    const existing = this.deployments.get(record.deployment);
    if (existing && existing.removedAt === undefined) return { ...existing };
    this.deployments.set(record.deployment, { ...record });
    return undefined;
  }

  async reactivate(deployment: string, _at?: string, functions?: readonly DeploymentFunction[], replaced?: readonly DeploymentFunction[]): Promise<boolean> {
    const d = this.deployments.get(deployment);
    if (!d || d.removingAt !== undefined) return false;
    delete d.supersededAt;
    if (functions) d.functions = functions;
    if (replaced) {
      if (replaced.length > 0) d.replaced = replaced;
      else delete d.replaced;
    }
    return true;
  }

  async supersede(deployment: string, at: string): Promise<boolean> {
    const d = this.deployments.get(deployment);
    if (!d || d.supersededAt !== undefined || d.removingAt !== undefined) return false;
    d.supersededAt = at;
    return true;
  }

  async markRemoving(deployment: string, at: string): Promise<boolean> {
    const d = this.deployments.get(deployment);
    if (!d || d.supersededAt === undefined || d.removingAt !== undefined) return false;
    d.removingAt = at;
    return true;
  }

  async markRemoved(deployment: string, at: string, ttl: number): Promise<boolean> {
    const d = this.deployments.get(deployment);
    if (!d || d.removingAt === undefined || d.removedAt !== undefined) return false;
    d.removedAt = at;
    d.ttl = ttl;
    return true;
  }

  async *runsStarted(after: string, before: string): AsyncIterable<readonly RunView[]> {
    this.windows.push({ after, before });
    const inWindow = this.runs.filter((r) => r.startedAt > after && r.startedAt < before).map((r) => r.view);
    // Pages of one run: a deployment is judged across pages.
    for (const run of inWindow) yield [run];
  }

  async parked(workflowId: string, names: readonly string[]): Promise<(Parked | undefined)[]> {
    return names.map((n) => this.parkedItems.get(`${workflowId}/${n}`));
  }

  /** A run of `deployment` started at `startedAt`, with `record` beyond that. */
  addRun(workflowId: string, deployment: string, startedAt: string, record: Partial<RunRecord> = {}, redo: string[] = [], never?: string): RunView {
    const view: RunView = {
      workflowId,
      record: { status: 'RUNNING', startedAt, deployment, ...record },
      redrive: { redo, redoing: [], redrives: 0, ...(never === undefined ? {} : { never }) },
    };
    this.runs.push({ startedAt, view });
    return view;
  }

  park(workflowId: string, invocation: string, until: number): void {
    this.parkedItems.set(`${workflowId}/${invocation}`, { functionName: 'f:d', event: '{}', until });
  }
}

/** Lambda and IAM as what exists (aliases and settings by `function:qualifier`); `failAt` makes the n-th call throw (a crash halfway). */
export class FakeResources implements DeploymentResources {
  /** The version each alias names. */
  readonly aliases = new Map<string, string>();
  readonly configs = new Map<string, AsyncInvokeSettings>();
  readonly versions = new Set<string>();
  readonly functions = new Set<string>();
  readonly roles = new Set<string>();
  readonly calls: string[] = [];
  failAt?: number;
  /** Calls (`<name> <key>`, as `calls` logs them) that always throw. */
  readonly failing = new Set<string>();

  /** Creates what `deployment`'s functions and roles are. */
  deploy(deployment: string, functions: readonly DeploymentFunction[], schedulerRoleName?: string): void {
    for (const f of functions) {
      this.functions.add(f.functionName);
      this.versions.add(`${f.functionName}:${f.version}`);
      this.aliases.set(`${f.functionName}:${deployment}`, f.version);
      this.configs.set(`${f.functionName}:${deployment}`, { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 3600, onFailure: `arn:recorder:${deployment}` });
      if (f.roleName) this.roles.add(f.roleName);
    }
    if (schedulerRoleName) this.roles.add(schedulerRoleName);
  }

  /** Logs the call; throws when it is the one to fail. */
  private called(name: string, key: string): void {
    this.calls.push(`${name} ${key}`);
    if (this.failAt !== undefined && this.calls.length === this.failAt) throw new Error(`${name} failed: throttled`);
    if (this.failing.has(`${name} ${key}`)) throw Object.assign(new Error(`not authorized to ${name} ${key}`), { name: 'AccessDeniedException' });
  }

  async ensureAlias(functionName: string, alias: string, version: string): Promise<string | undefined> {
    const key = `${functionName}:${alias}`;
    this.called('ensureAlias', `${key} ${version}`);
    if (!this.functions.has(functionName) || !this.versions.has(`${functionName}:${version}`)) throw Object.assign(new Error(`Function not found: ${functionName}:${version}`), { name: 'ResourceNotFoundException' });
    const previous = this.aliases.get(key);
    this.aliases.set(key, version);
    return previous === version ? undefined : previous;
  }

  async putEventInvokeConfig(functionName: string, qualifier: string, settings: AsyncInvokeSettings): Promise<void> {
    const key = `${functionName}:${qualifier}`;
    this.called('putEventInvokeConfig', key);
    if (!this.aliases.has(key)) throw Object.assign(new Error(`Function not found: ${key}`), { name: 'ResourceNotFoundException' });
    this.configs.set(key, settings);
  }

  /** Publishes `version` of `functionName` (and its role), as CloudFormation does before the deployment's resource runs. */
  publish(f: DeploymentFunction): void {
    this.functions.add(f.functionName);
    this.versions.add(`${f.functionName}:${f.version}`);
    if (f.roleName) this.roles.add(f.roleName);
  }

  private async call(name: string, set: Set<string> | Map<string, unknown>, key: string, also?: (key: string) => void): Promise<boolean> {
    this.called(name, key);
    if (!set.has(key)) return false;
    set.delete(key);
    also?.(key);
    return true;
  }

  deleteEventInvokeConfig(functionName: string, qualifier: string): Promise<boolean> {
    return this.call('deleteEventInvokeConfig', this.configs, `${functionName}:${qualifier}`);
  }

  deleteAlias(functionName: string, alias: string): Promise<boolean> {
    return this.call('deleteAlias', this.aliases, `${functionName}:${alias}`);
  }

  deleteVersion(functionName: string, version: string): Promise<boolean> {
    return this.call('deleteVersion', this.versions, `${functionName}:${version}`);
  }

  deleteFunction(functionName: string): Promise<boolean> {
    return this.call('deleteFunction', this.functions, functionName, (name) => {
      for (const set of [this.aliases, this.configs, this.versions]) for (const k of [...set.keys()]) if (k.startsWith(`${name}:`)) set.delete(k);
    });
  }

  deleteRole(roleName: string): Promise<boolean> {
    return this.call('deleteRole', this.roles, roleName);
  }
}
