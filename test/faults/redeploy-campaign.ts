/**
 * `npm run test:faults -- --redeploy ...` (test/faults/campaign.ts): the
 * redeploy campaign over test/faults/redeploy-app. Synthesizes every shape,
 * starts an engine on the first, deploys each shape in turn for the
 * reference results of its deployments, then runs the seeds, which deploy
 * shapes while the runs are in flight (lib/testing/redeploy-campaign.ts).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { RedeployMeasures } from '../../bench/fault-campaign';
import { LocalEngine } from '../../lib/local/engine';
import { renderTimeline } from '../../lib/local/report';
import type { CampaignSummary } from '../../lib/testing/campaign';
import { deploymentExpectations, redeploySchedules, redeploySeed, type RedeploySummary } from '../../lib/testing/redeploy-campaign';
import { describeRedeploy } from '../../lib/testing/redeploy-plan';
import { Redeploys } from '../../lib/testing/redeploys';
import { REDEPLOY_TARGETS, synthesizeShapes } from './redeploy-app/targets';

export interface RedeployCampaignOptions {
  /** Seeds to run (`--seeds`), or none. */
  readonly seeds: readonly number[];
  /** One seed to replay with its timeline (`--seed`). */
  readonly replay?: number;
  readonly concurrency: number;
  readonly serviceFaults: boolean;
  /** Prints a campaign's totals (campaign.ts `report`). */
  readonly report: (title: string, s: CampaignSummary, started: number) => void;
  /** Called once the seeds completed, with what figure 12 records. */
  readonly completed?: (result: { summary: RedeploySummary; workflows: readonly string[]; redeploys: RedeployMeasures; scheduleSeconds: number }) => void;
}

/** Runs the campaign; resolves to the number of failures. */
export async function redeployCampaign(o: RedeployCampaignOptions): Promise<number> {
  const started = Date.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-redeploy-faults-'));
  const running: { engine?: LocalEngine } = {};
  const cleanUp = async (): Promise<void> => {
    await running.engine?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stdout.write(`${signal}: stopping the engine\n`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let failed = 0;
  try {
    process.stdout.write('synthesizing the shapes of the redeploy app ...\n');
    const shapes = await synthesizeShapes(root);
    const engine = await LocalEngine.fromCloudAssembly(shapes[0]?.dir as string, { timeScale: 0.0005, ttlIntervalMs: 60_000 });
    running.engine = engine;
    const schedulesStarted = Date.now();
    process.stdout.write(`deploying ${shapes.map((s) => s.name).join(', ')} in turn for the reference results ...\n`);
    const expectations = await deploymentExpectations(engine, REDEPLOY_TARGETS, shapes);
    const modeFlags = ` --redeploy${o.serviceFaults ? ' --service-faults' : ''}`;
    if (o.replay !== undefined) {
      const redeploys = new Redeploys(engine, shapes);
      const s = await redeploySeed(engine, REDEPLOY_TARGETS, redeploys, expectations, o.replay, { serviceFaults: o.serviceFaults, keep: true });
      await redeploys.settled();
      process.stdout.write(`seed ${o.replay}: ${s.target.workflow}, ${JSON.stringify(s.plan.base.params)}; ${s.plan.redeploys.map((r) => describeRedeploy(r, redeploys.shapeName)).join('; ')}\n`);
      process.stdout.write(`${renderTimeline(engine.emulator.timeline.of(s.run.workflowId))}\n`);
      const violations = [...s.run.violations, ...redeploys.failures.map((f) => `${f.what}: ${f.error}`)];
      process.stdout.write(`run on ${s.run.record?.deployment ?? '(no deployment)'}; injected ${JSON.stringify(s.plan.counts())}; ${violations.length === 0 ? 'invariants hold' : `VIOLATIONS:\n  ${violations.join('\n  ')}`}\n`);
      failed += violations.length > 0 ? 1 : 0;
    }
    if (o.seeds.length > 0) {
      const [from, to] = [o.seeds[0], o.seeds[o.seeds.length - 1]];
      let done = 0;
      const s = await redeploySchedules(engine, REDEPLOY_TARGETS, shapes, o.seeds, {
        concurrency: o.concurrency,
        expectations,
        ...(o.serviceFaults ? { serviceFaults: true } : {}),
        onSeed: (seed, target, run) => {
          done++;
          if (run.violations.length > 0) process.stdout.write(`FAIL seed ${seed} (${target.workflow}): ${run.violations.join('; ')}\n  replay: npm run test:faults --${modeFlags} --seed ${seed}\n`);
          if (done % 100 === 0) process.stdout.write(`  ${done}/${o.seeds.length} seeds, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
        },
      });
      o.report(`redeploy schedules: ${o.seeds.length} seeds (${from}..${to}) over ${REDEPLOY_TARGETS.length} workflows, ${shapes.length} shapes`, s, started);
      process.stdout.write(`  faults injected: ${Object.entries(s.injected).map(([k, v]) => `${v} ${k}`).join(', ')}\n`);
      process.stdout.write(`  ${s.redeploys} deploys; ${s.spanned} runs had a deploy finish during them; runs ran on ${s.deploymentsRun} of ${s.deploymentsDefined} deployments\n`);
      process.stdout.write(`  seeds per second (synthesis excluded): ${(o.seeds.length / ((Date.now() - schedulesStarted) / 1000)).toFixed(2)}\n`);
      if (s.failures.length) process.stdout.write(`  failing seeds: ${s.failures.map((f) => f.what).join(', ')}\n  replay one: npm run test:faults --${modeFlags} --seed S\n`);
      failed += s.failures.length;
      o.completed?.({
        summary: s,
        workflows: REDEPLOY_TARGETS.map((t) => t.workflow),
        redeploys: { shapes: shapes.map((x) => x.name), deploys: s.redeploys, spanned: s.spanned, deploymentsRun: s.deploymentsRun, deploymentsDefined: s.deploymentsDefined },
        scheduleSeconds: (Date.now() - schedulesStarted) / 1000,
      });
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
  return failed;
}
