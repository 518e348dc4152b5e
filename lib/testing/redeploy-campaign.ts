/**
 * The redeploy campaign (issue 34): seeded random schedules over the
 * workflows of an app that has several shapes (synths), during which the
 * seeds deploy shapes over each other (`RedeployPlan`, `Redeploys`). Every
 * run must finish on the deployment it started on, with the result that
 * deployment defines: each shape's reference runs give each deployment of
 * each workflow its expectation, and the checker resolves a run's by the
 * deployment its record names (invariants 3 and 8).
 */
import type { LocalEngine } from '../local/engine';
import { expectationFor, summarize, targetOfSeed, type CampaignSummary, type RandomOptions, type Target } from './campaign';
import type { Expectation } from './checker';
import { checkedRun, referenceRun, withConcurrency, type CheckedRun } from './fault-run';
import { RedeployPlan, redeploysForSeed } from './redeploy-plan';
import { Redeploys, type RedeployShape } from './redeploys';
import { planForSeed, RANDOM_FAULT_KINDS, SERVICE_FAULT_KINDS } from './schedule';

/** Each workflow's expectations, by deployment. */
export type DeploymentExpectations = ReadonlyMap<string, ReadonlyMap<string, Expectation>>;

/**
 * Deploys each shape in turn and runs each target once without faults on
 * it: the deployment its record names, and the expectation that record
 * gives. Shapes whose workflow did not change give the same deployment. The
 * engine is left on the last shape.
 */
export async function deploymentExpectations(engine: LocalEngine, targets: readonly Target[], shapes: readonly RedeployShape[]): Promise<DeploymentExpectations> {
  const out = new Map<string, Map<string, Expectation>>(targets.map((t) => [t.workflow, new Map()]));
  for (const shape of shapes) {
    const deployed = await engine.deploy(shape.dir);
    for (const target of targets) {
      const record = await referenceRun(engine, target.workflow, target.input, target.during);
      const deployment = deployed[target.workflow];
      if (deployment === undefined) throw new Error(`${shape.name} has no workflow ${target.workflow}`);
      if (record.deployment !== deployment) throw new Error(`the reference run of ${target.workflow} on ${shape.name} ran on ${record.deployment ?? 'no deployment'}, not on the one deployed (${deployment})`);
      out.get(target.workflow)?.set(deployment, expectationFor(target, record, engine));
    }
  }
  return out;
}

export interface RedeploySummary extends CampaignSummary {
  readonly injected: Record<string, number>;
  /** Deploys the seeds asked for that finished. */
  readonly redeploys: number;
  /** Runs during which at least one deploy finished. */
  readonly spanned: number;
  /** Distinct deployments the runs ran on, of how many the shapes define. */
  readonly deploymentsRun: number;
  readonly deploymentsDefined: number;
}

export interface RedeployOptions extends RandomOptions {
  /** Each workflow's expectations by deployment, when already known (`deploymentExpectations`). @default computed first */
  readonly expectations?: DeploymentExpectations;
}

/** The expectation of a run of `workflow`: what the deployment its record names defines. */
const byDeployment = (expectations: DeploymentExpectations, workflow: string): Expectation => ({ kind: 'byDeployment', expectations: expectations.get(workflow) ?? new Map() });

/** One seed: target `s mod n` under `planForSeed(s)` and the seed's redeploys; resolves once its deploys are done too. */
export async function redeploySeed(engine: LocalEngine, targets: readonly Target[], redeploys: Redeploys, expectations: DeploymentExpectations, seed: number, options: { readonly serviceFaults?: boolean; readonly keep?: boolean } = {}): Promise<{ target: Target; plan: RedeployPlan; run: CheckedRun; spanned: boolean }> {
  const target = targetOfSeed(targets, seed);
  const plan = new RedeployPlan(planForSeed(seed, options.serviceFaults), redeploysForSeed(seed, redeploys.shapes.length), (r, afterMs) => redeploys.request(r, afterMs, `seed ${seed}`));
  const before = redeploys.finished;
  const run = await checkedRun(engine, target.workflow, target.input, plan, byDeployment(expectations, target.workflow), {
    workflowId: `redeploy-${seed}-${Date.now()}`,
    ...(options.keep ? { keep: true } : {}),
    ...(target.effects ? { effects: target.effects } : {}),
    ...(target.during ? { during: target.during } : {}),
  });
  const spanned = redeploys.finished > before;
  await plan.deployed();
  return { target, plan, run, spanned };
}

/**
 * Seeded random schedules with redeploys: seed s runs target `s mod n`
 * under `planForSeed(s)` and deploys the shapes `redeploysForSeed(s)` draws
 * at the points it draws. Deploy failures are failures of the campaign.
 */
export async function redeploySchedules(engine: LocalEngine, targets: readonly Target[], shapes: readonly RedeployShape[], seeds: readonly number[], options: RedeployOptions = {}): Promise<RedeploySummary> {
  const expectations = options.expectations ?? (await deploymentExpectations(engine, targets, shapes));
  const redeploys = new Redeploys(engine, shapes);
  const kinds = [...RANDOM_FAULT_KINDS, ...(options.serviceFaults ? SERVICE_FAULT_KINDS : []), 'redeploy'];
  const injected: Record<string, number> = Object.fromEntries(kinds.map((k) => [k, 0]));
  const ranOn = new Set<string>();
  let spanned = 0;
  const runs = await withConcurrency(seeds, options.concurrency ?? 6, async (seed) => {
    const s = await redeploySeed(engine, targets, redeploys, expectations, seed, options.serviceFaults ? { serviceFaults: true } : {});
    for (const [k, v] of Object.entries(s.plan.counts())) injected[k] = (injected[k] ?? 0) + v;
    if (s.run.record?.deployment) ranOn.add(s.run.record.deployment);
    if (s.spanned) spanned++;
    options.onSeed?.(seed, s.target, s.run);
    return { what: `seed ${seed} (${s.target.workflow})`, run: s.run };
  });
  await redeploys.settled();
  const summary = summarize(runs);
  return {
    ...summary,
    failures: [...summary.failures, ...redeploys.failures.map((f) => ({ what: f.what, workflowId: '', violations: [`the deploy failed: ${f.error}`] }))],
    injected,
    redeploys: redeploys.finished,
    spanned,
    deploymentsRun: ranOn.size,
    deploymentsDefined: [...expectations.values()].reduce((a, m) => a + m.size, 0),
  };
}
