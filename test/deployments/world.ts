/** A workflow's deployments in the fakes: ids, times in minutes, functions named by node. */
import type { DeploymentFunction, DeploymentRecord } from '../../runtime/contract/table';
import { FakeRecords, FakeResources } from './fakes';

export const D1 = `d${'1'.repeat(20)}`;
export const D2 = `d${'2'.repeat(20)}`;
export const D3 = `d${'3'.repeat(20)}`;
export const HANDOFF_SECONDS = 600;
export const RETENTION_SECONDS = 86_400;

const EPOCH = Date.parse('2026-01-01T00:00:00.000Z');
/** Epoch ms `minutes` after the scenario's start. */
export const at = (minutes: number): number => EPOCH + minutes * 60_000;
export const iso = (minutes: number): string => new Date(at(minutes)).toISOString();

/** Node `node`'s function in deployment `deployment`, at `version`, with a role of that deployment. */
export const fn = (node: string, deployment: string, version: string): DeploymentFunction => ({ node, functionName: `wf-${node}`, version, roleName: `wf-${node}-${deployment}` });

export class World {
  readonly records = new FakeRecords();
  readonly resources = new FakeResources();

  /** Deployment `deployment` activated at minute `from`, superseded at `until` (absent: current). */
  deploy(deployment: string, functions: DeploymentFunction[], from: number, until?: number, schedulerRoleName?: string): DeploymentRecord {
    const record: DeploymentRecord = {
      deployment,
      activatedAt: iso(from),
      ...(until === undefined ? {} : { supersededAt: iso(until) }),
      functions,
      ...(schedulerRoleName === undefined ? {} : { schedulerRoleName }),
      graph: Object.fromEntries(functions.map((f) => [f.node, []])),
      handoffSeconds: HANDOFF_SECONDS,
      runRetentionSeconds: RETENTION_SECONDS,
    };
    this.records.deployments.set(deployment, { ...record });
    this.resources.deploy(deployment, functions, schedulerRoleName);
    return record;
  }

  record(deployment: string) {
    return this.records.deployments.get(deployment);
  }
}

/** The failure recorder's alias of `deployment`, the nodes' on-failure destination. */
export const recorderArn = (deployment: string) => `arn:aws:lambda:us-east-1:123456789012:function:wf-recorder:${deployment}`;

/**
 * The properties the construct gives `Custom::UnumDeployment` for
 * `deployment` of `functions` (the first the entry), scalars as
 * CloudFormation passes them: strings.
 */
export const resourceProperties = (deployment: string, functions: readonly DeploymentFunction[] = [fn('A', deployment, '3')]) => ({
  ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:wf-sweeper',
  Deployment: deployment,
  EntryNode: functions[0]?.node ?? 'A',
  Functions: functions.map((f) => ({
    Node: f.node,
    FunctionName: f.functionName,
    Version: f.version,
    RoleName: f.roleName,
    Async: { MaximumRetryAttempts: '2', MaximumEventAgeInSeconds: '3600', OnFailure: recorderArn(deployment) },
  })),
  SchedulerRoleName: `wf-scheduler-${deployment}`,
  Graph: { A: ['B'], B: [] },
  HandoffSeconds: String(HANDOFF_SECONDS),
  RunRetentionSeconds: String(RETENTION_SECONDS),
});

/** What CloudFormation creates before the deployment's resource runs: the versions `properties` name and their roles. */
export function publish(world: World, properties: unknown): void {
  const { Functions, SchedulerRoleName } = (properties ?? {}) as { Functions?: unknown; SchedulerRoleName?: string };
  if (!Array.isArray(Functions)) return;
  for (const f of Functions as { Node: string; FunctionName: string; Version: string; RoleName?: string }[]) {
    world.resources.publish({ node: f.Node, functionName: f.FunctionName, version: f.Version, ...(f.RoleName === undefined ? {} : { roleName: f.RoleName }) });
  }
  if (SchedulerRoleName) world.resources.roles.add(SchedulerRoleName);
}

/** The JSON log lines the code under test writes to stdout, captured anew for each test of the file that calls this. */
export function captureLogLines(): { readonly lines: Record<string, unknown>[] } {
  const captured = { lines: [] as Record<string, unknown>[] };
  beforeEach(() => {
    captured.lines = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      captured.lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      return true;
    });
  });
  afterEach(() => jest.restoreAllMocks());
  return captured;
}
