/**
 * Figures 9, 10, 12 and 13, the fault campaigns: external figures (bench/figures.ts).
 * They are produced by `npm run test:faults -- --seeds N --record`
 * (test/faults/campaign.ts; figure 10 with `--extended`, the workflow set
 * with the shapes of issue 14, and `--service-faults`; figure 12 with
 * `--redeploy`, the redeploy app's shapes deployed during the runs; figure 13 with
 * `--effects`, the Orders shape under PostgreSQL's own failures), which hands its
 * summary to `faultCampaignResult` and records the result into
 * .unum/bench/results.json (bench/results.ts); `npm run bench` keeps it.
 */
import type { CampaignSummary } from '../lib/testing/campaign';
import { EFFECTS_FAULT_CAMPAIGN, EFFECTS_FAULT_CAMPAIGN_SEEDS, EXTENDED_FAULT_CAMPAIGN, EXTENDED_FAULT_CAMPAIGN_SEEDS, FAULT_CAMPAIGN, FAULT_CAMPAIGN_SEEDS, REDEPLOY_FAULT_CAMPAIGN, REDEPLOY_FAULT_CAMPAIGN_SEEDS } from './figures';
import { fmt, fmtInt } from './stats';
import type { FigureResult } from './types';

export interface CampaignModeOptions {
  /** The extended workflow set (`--extended`), recorded as figure 10. */
  readonly extended?: boolean;
  /** Service faults too (`--service-faults`): throttling, 500s, outages, Lambda 429s. */
  readonly serviceFaults?: boolean;
  /** The redeploy app's workflows, its shapes deployed during the runs (`--redeploy`), recorded as figure 12. */
  readonly redeploy?: boolean;
  /** The Orders shape under PostgreSQL's own failures too (`--effects`, issue 35), recorded as figure 13. */
  readonly effects?: boolean;
}

export interface CampaignCommandOptions extends CampaignModeOptions {
  readonly seeds: number;
  /** First seed, when given on the command line. */
  readonly from?: number;
  /** Schedules in flight, when given on the command line. */
  readonly concurrency?: number;
}

/** The flags that select the workflow set and the fault mode (replaying a seed needs them too). */
export const campaignModeFlags = (o: CampaignModeOptions): string => `${o.redeploy ? ' --redeploy' : ''}${o.effects ? ' --effects' : ''}${o.extended ? ' --extended' : ''}${o.serviceFaults ? ' --service-faults' : ''}`;

/** The command line that reproduces (and records) a campaign. */
export function faultCampaignCommand(o: CampaignCommandOptions): string {
  const from = o.from !== undefined ? ` --from ${o.from}` : '';
  const concurrency = o.concurrency !== undefined ? ` --concurrency ${o.concurrency}` : '';
  return `npm run test:faults -- --seeds ${o.seeds}${from}${concurrency}${campaignModeFlags(o)} --record`;
}

export interface FaultCampaignRun extends CampaignCommandOptions {
  /** Workflows the seeds cycle over (seed s runs workflow s mod n). */
  readonly workflows: readonly string[];
  /** Schedules in flight (the default when not given). */
  readonly concurrencyUsed: number;
  /** `staleReads` is absent from campaigns recorded before the fault proxy answered reads stale. */
  readonly summary: Omit<CampaignSummary, 'staleReads'> & { readonly staleReads?: number; readonly injected: Readonly<Record<string, number>> };
  /** The redeploy campaign's own measures (`--redeploy`). */
  readonly redeploys?: RedeployMeasures;
  /** The whole command, synthesis of the apps included. */
  readonly wallSeconds: number;
  /** The campaign without the synthesis: fault-free reference runs and the random schedules. */
  readonly scheduleSeconds: number;
  readonly finishedAt: Date;
  /** `git rev-parse --short HEAD` (+ uncommitted changes), when known. */
  readonly commit?: string;
  /** Load averages (1 / 5 / 15 min) at the start and at the end. */
  readonly load: { readonly start: string; readonly end: string };
  /** The machine, one line (bench/machine.ts). */
  readonly machine: string;
}

/** What a redeploy campaign measures beyond the faults (lib/testing/redeploy-campaign.ts `RedeploySummary`). */
export interface RedeployMeasures {
  /** The shapes of the app, in the order first deployed. */
  readonly shapes: readonly string[];
  /** Deploys the seeds asked for that finished. */
  readonly deploys: number;
  /** Runs during which at least one deploy finished. */
  readonly spanned: number;
  readonly deploymentsRun: number;
  readonly deploymentsDefined: number;
}

/** What each kind of drawn fault does (lib/local/schedule.ts RandomPlan, lib/local/fault-plan.ts). */
const FAULT_KINDS: ReadonlyArray<readonly [string, string]> = [
  ['crash', 'the execution dies just before a DynamoDB or Invoke call reaches its service, or just after it took effect; Lambda retries the event'],
  ['timeout', 'a call hangs until the execution is killed by its timeout; Lambda retries the event'],
  ['duplicate', 'an async event is delivered twice, concurrently'],
  ['late', 'an async event is delivered a second time after the run finished and its state was collected'],
  ['rerun', 'an execution that succeeded runs once more (at-least-once delivery)'],
  ['stale', 'an eventually consistent read is answered as by a replica that has none of the items asked for'],
];

/** What each kind of service fault does (lib/local/schedule.ts ServiceFaultPlan, lib/local/service-errors.ts). */
const SERVICE_FAULT_KINDS: ReadonlyArray<readonly [string, string]> = [
  ['throughput', 'a DynamoDB call is refused with ProvisionedThroughputExceededException (400); the SDK retries it'],
  ['throttling', 'a DynamoDB call is refused with ThrottlingException (400); the SDK retries it'],
  ['error-before', 'a DynamoDB call fails with a 500 before it reaches DynamoDB; the SDK retries it'],
  ['error-after', 'a DynamoDB call takes effect, then its caller gets a 500 (the response is lost); the SDK retries it'],
  ['outage', 'DynamoDB is unreachable (connection reset) for 1 to 5 attempts of a call: the SDK retries, and when it gives up (after 4 attempts), Lambda retries the execution'],
  ['invoke-throttling', 'a Lambda Invoke is refused with a 429 TooManyRequestsException; the SDK retries it'],
];

/** What the redeploy fault does (lib/testing/redeploy-plan.ts). */
const REDEPLOY_KIND: readonly [string, string] = ['redeploy', 'a shape of the app drawn from the seed (possibly the live one, or an earlier one: a revert) is deployed when the run\'s k-th execution begins or some milliseconds after its first, held half done (new versions and aliases, `live` not moved) for up to 300 ms; every run in flight meets it'];

/** What each PostgreSQL fault does (test/faults/pg-faults.ts, drawn per seed beside the random plan's). */
const PG_FAULT_KINDS: ReadonlyArray<readonly [string, string]> = [
  ['pgRestart', 'the PostgreSQL server is stopped immediately and started again (it recovers from its WAL) just before PlaceOrder\'s COMMIT, or just after it with the COMMIT\'s answer lost; Lambda retries the execution'],
  ['pgBackendKill', 'the backend of PlaceOrder\'s transaction is killed (SIGKILL), so the server resets every session, just before its COMMIT or just after it with the answer lost; Lambda retries the execution'],
  ['pgStatusLoss', '(introspection) PlaceOrder\'s transaction meets a claim whose transaction status the server no longer has: the run must fail with the undeterminable EffectError, having applied it at most once'],
];

/** The invariants lib/testing/checker.ts (and lib/testing/fault-run.ts for 5) checks after every schedule. */
const INVARIANTS = [
  '1. exactly one result or one FAILED record: the run record is created once and finished by exactly one successful write',
  '2. every invocation\'s successors get identical inputs from all its executions (so a fan-in is never invoked with two inputs)',
  '3. the result equals the expected one: a fault-free run\'s, or, where user code is non-deterministic, what the committed first-writer checkpoints imply (a failing workflow must fail with its error)',
  '4. no coordination state is left but TTL-bound records: every item the run wrote and that remains has a TTL',
  '5. a late duplicate delivered after the run finished changes nothing: the run record is the same before and after',
  '6. never more than N item processors of a Map with maxConcurrency N run at once',
  '7. every effect applied exactly once: the Orders example\'s counters in its DynamoDB ledger (charges, charged cents, reservations, reserved units) and rows in its PostgreSQL tables equal what the committed PlaceOrder implies (under `introspection`, a run FAILED with the undeterminable EffectError has each at 0 or one application)',
  '8. a run stays on the deployment it started on: its record names the deployment `live` named at its start, and every execution of the run ran on that deployment\'s alias (never `$LATEST` or another deployment\'s); with deploys during the runs, invariant 3 expects the result of the run\'s own deployment',
];

/** Failing seeds listed in full up to this many. */
const LISTED_FAILURES = 200;

export function faultCampaignResult(r: FaultCampaignRun): FigureResult {
  const s = r.summary;
  const spec = r.effects ? EFFECTS_FAULT_CAMPAIGN : r.redeploy ? REDEPLOY_FAULT_CAMPAIGN : r.extended ? EXTENDED_FAULT_CAMPAIGN : FAULT_CAMPAIGN;
  const targetSeeds = r.effects ? EFFECTS_FAULT_CAMPAIGN_SEEDS : r.redeploy ? REDEPLOY_FAULT_CAMPAIGN_SEEDS : r.extended ? EXTENDED_FAULT_CAMPAIGN_SEEDS : FAULT_CAMPAIGN_SEEDS;
  const kinds = [...FAULT_KINDS, ...(r.serviceFaults ? SERVICE_FAULT_KINDS : []), ...(r.redeploy ? [REDEPLOY_KIND] : []), ...(r.effects ? PG_FAULT_KINDS : [])];
  const last = (r.from ?? 1) + r.seeds - 1;
  const violations = s.failures.length;
  const injected = kinds.reduce((a, [k]) => a + (s.injected[k] ?? 0), 0);
  // Figure 10 stands for the extended set under service faults; figure 12 for runs that deploys met.
  const modeMissed = r.redeploy ? !r.redeploys || r.redeploys.spanned === 0 : r.extended && !r.serviceFaults;
  const met = violations === 0 && r.seeds >= targetSeeds && !modeMissed;
  const command = faultCampaignCommand(r);
  const replay = `npm run test:faults --${campaignModeFlags(r)} --seed S`;
  const detail = `${fmtInt(violations)} violation(s) over ${fmtInt(r.seeds)} seeds (${fmtInt(r.from ?? 1)}..${fmtInt(last)}): `
    + `${fmtInt(s.schedules)} schedules, ${fmtInt(s.executions)} executions, ${fmtInt(injected)} faults injected`
    + `${r.seeds < targetSeeds ? `; fewer than ${fmtInt(targetSeeds)} seeds` : ''}${modeMissed ? (r.redeploy ? '; no run met a deploy' : '; without service faults') : ''}`;
  const notes = [...s.notes].map(([note, n]) => `${fmtInt(n)}x (no invariant broken): ${note}`);
  if (violations > 0) {
    const listed = s.failures.slice(0, LISTED_FAILURES).map((f) => f.what).join(', ');
    const more = violations > LISTED_FAILURES ? ` and ${fmtInt(violations - LISTED_FAILURES)} more` : '';
    notes.unshift(`Failing seeds (replay one with \`${replay}\`): ${listed}${more}.`);
  }
  const random = r.serviceFaults ? 'ServiceFaultPlan(paramsForSeed(s), serviceParamsForSeed(s))' : 'RandomPlan(paramsForSeed(s))';
  const plan = (r.redeploy ? `RedeployPlan(${random}, redeploysForSeed(s))` : random) + (r.effects ? ' and pgFaultForSeed(s)' : '');
  const rates = (r.serviceFaults
    ? 'crashes, timeouts, duplicates, late duplicates, re-runs and event reordering, and of DynamoDB throttling, 500s before and after a write, outages and Lambda 429s'
    : 'crashes, timeouts, duplicates, late duplicates, re-runs and event reordering') + (r.redeploy ? ', and the shapes and points of its deploys' : '') + (r.effects ? ', and its PostgreSQL fault (kind and point)' : '');
  return {
    id: spec.id,
    number: spec.number,
    title: spec.title,
    status: 'measured',
    quick: false,
    measuredAt: r.finishedAt.toISOString(),
    seconds: r.wallSeconds,
    command,
    tables: [
      {
        caption: `Seeds ${fmtInt(r.from ?? 1)}..${fmtInt(last)}, seed s on workflow s mod ${r.workflows.length}`,
        headers: ['Measure', 'Value'],
        rows: [
          ['Seeds', `${fmtInt(r.from ?? 1)}..${fmtInt(last)} (${fmtInt(r.seeds)})`],
          ['Workflows targeted', fmtInt(r.workflows.length)],
          ['Schedules run', fmtInt(s.schedules)],
          ['Executions (Lambda attempts, duplicates and re-runs included)', fmtInt(s.executions)],
          ['Call faults seen by the fault proxy (crash / timeout)', fmtInt(s.callFaults)],
          ...(r.serviceFaults ? [['Service faults seen by the fault proxy (throttling / 500 / unreachable, each attempt)', fmtInt(s.serviceFaults)]] : []),
          ...(s.staleReads === undefined ? [] : [['Eventually consistent reads answered stale by the fault proxy', fmtInt(s.staleReads)]]),
          ['Late duplicates delivered after the run finished', fmtInt(s.lateDuplicates)],
          ...(r.redeploys ? redeployRows(r.redeploys) : []),
          ['**Invariant violations**', `**${fmtInt(violations)}**`],
          ['Wall time (synthesis of the apps included)', `${fmt(r.wallSeconds, 1)} s`],
          ['Seeds per second (synthesis excluded)', fmt(r.seeds / Math.max(r.scheduleSeconds, 1e-9), 2)],
        ],
      },
      {
        caption: 'Faults injected, by kind (drawn by the seeds\' random plans)',
        headers: ['Kind', 'What it does', 'Injected'],
        rows: [...kinds.map(([k, what]) => [k, what, fmtInt(s.injected[k] ?? 0)]), ['**total**', '', fmtInt(injected)]],
      },
    ],
    targets: [{ name: r.redeploy ? `0 violations over >= ${fmtInt(targetSeeds)} seeds` : `0 invariant violations over ${fmtInt(targetSeeds)} seeds${r.extended ? ' of the extended set under service faults' : ''}`, met, detail }],
    method: [
      `Command: \`${command}\`${r.commit ? ` at commit ${r.commit}` : ''}, on ${r.machine}.`,
      `Seed s runs workflow s mod ${r.workflows.length} (${r.workflows.join(', ')}) on the local engine (Lambda emulator, DynamoDB Local) under ${plan}: the seed sets the rates of ${rates}, and each decision hashes the seed with the execution and call identities, so \`${replay}\` replays a seed exactly${r.redeploy ? ' (with its own deploys; the other seeds\' deploys it met in the campaign are not replayed)' : ''}.`,
      ...(r.redeploy && r.redeploys ? [`The redeploy app (test/faults/redeploy-app) in ${r.redeploys.shapes.length} shapes (${r.redeploys.shapes.join(', ')}), synthesized with \`-c unumShape=N\`: between them a Parallel gains a branch, nodes are renamed or removed, a handler's result changes, a Wait is added, a callback Task is removed, and a shape reverts to an earlier one. Each shape is deployed in turn first, and a fault-free run of each workflow on it gives that deployment's expected result (${fmtInt(r.redeploys.deploymentsDefined)} deployments); the seeds then deploy shapes while every schedule's run is in flight.`] : []),
      ...(r.effects ? ['The Orders shape (Price, PlaceOrder, Confirm) on PostgreSQL 15 with PlaceOrder\'s transaction under the default strategy (PgOrders: the marker row; a server fault must leave a SUCCEEDED run that applied each effect once) and under `introspection` (PgIntrospectedOrders: it may instead fail with the undeterminable EffectError, never applying twice). A server fault fires only while the faulted execution holds the only connection lent out and never on the last attempt Lambda allows (test/faults/pg-faults.ts).'] : []),
      ...(r.extended ? ['The extended set is figure 9\'s with the shapes of issue 14\'s trial: a Map inside a Parallel branch (MapInParallel), a loop around a Parallel (ParallelLoop), a Fold after a nested Map (FoldAfterNestedMap), a catch inside a Map\'s items (CatchInMap), Maps of 0 and 1 item (EdgeMaps), a Parallel of 1 branch (Parallel1), a workflow ending in a Map (EndsInMap).'] : []),
      `${r.concurrencyUsed} schedules in flight on one engine, each under its own workflowId.`,
      `Load average (1 / 5 / 15 min) at the start: ${r.load.start}; at the end: ${r.load.end}.`,
      `After each schedule the oracle (lib/testing/checker.ts, lib/testing/fault-run.ts) checks: ${INVARIANTS.join('; ')}.`,
    ],
    notes,
  };
}

function redeployRows(m: RedeployMeasures): string[][] {
  return [
    ['Deploys made during the schedules', fmtInt(m.deploys)],
    ['Runs during which a deploy finished', fmtInt(m.spanned)],
    ['Deployments the runs ran on (of those the shapes define)', `${fmtInt(m.deploymentsRun)} of ${fmtInt(m.deploymentsDefined)}`],
  ];
}
