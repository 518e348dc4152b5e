/**
 * Pure arithmetic: the price of N runs of a workflow on unum (Lambda +
 * DynamoDB) and of the same workflow on Step Functions Standard (Lambda tasks
 * + state transitions), Express (Lambda tasks + requests + duration) and
 * Lambda durable functions (one function running the tasks' code as steps:
 * one request, the tasks' duration, and a durable operation per state and for
 * the start), from usage measured per run. Like the Unum paper's Table 4, on our own runs.
 */
import { PRICES, type Prices } from './prices';

/** What one unum run used (averages over measured runs). */
export interface UnumRunUsage {
  /** Lambda requests: every execution, async retries and duplicate deliveries included. */
  readonly lambdaRequests: number;
  /** Billed GB-seconds: each execution's duration rounded up to Lambda's granularity, times its memory. */
  readonly lambdaGbSeconds: number;
  /** DynamoDB read request units, by AWS's rules (lib/cost/capacity.ts). */
  readonly readUnits: number;
  /** DynamoDB write request units, by AWS's rules. */
  readonly writeUnits: number;
  /** EventBridge Scheduler invocations: one per Wait that was scheduled (a wait already due is a plain invoke). @default 0 */
  readonly scheduledInvocations?: number;
}

/** What one run of the same workflow would use on Step Functions. */
export interface StepFunctionsRunUsage {
  /** State transitions of a Standard execution. */
  readonly stateTransitions: number;
  /** Lambda requests of the Task states (no unum runtime work in them). */
  readonly taskRequests: number;
  readonly taskGbSeconds: number;
  /** Duration of an Express execution. */
  readonly expressDurationMs: number;
  /** Memory of an Express execution; billed at least the minimum. @default 64 */
  readonly expressMemoryMb?: number;
}

export interface CostLine {
  readonly item: string;
  /** Quantity for all runs. */
  readonly quantity: number;
  readonly unit: string;
  readonly usd: number;
}

export interface CostOption {
  readonly name: string;
  readonly lines: readonly CostLine[];
  readonly totalUsd: number;
}

export interface CostComparison {
  readonly runs: number;
  readonly pricesDate: string;
  readonly region: string;
  readonly options: readonly CostOption[];
  /** Caveats that apply to these figures. */
  readonly notes: readonly string[];
}

/** Billed GB-seconds of one Lambda execution (at least one increment: no execution bills 0 ms). */
export function lambdaGbSeconds(durationMs: number, memoryMb: number, prices: Prices = PRICES): number {
  const g = prices.lambda.granularityMs;
  return ((Math.max(1, Math.ceil(durationMs / g)) * g) / 1000) * (memoryMb / 1024);
}

/** Billed GB-seconds of one Express execution (100 ms increments, 64 MB minimum). */
export function expressGbSeconds(durationMs: number, memoryMb: number, prices: Prices = PRICES): number {
  const x = prices.stepFunctionsExpress;
  const billedMs = Math.max(1, Math.ceil(durationMs / x.granularityMs)) * x.granularityMs;
  return (billedMs / 1000) * (Math.max(memoryMb, x.minimumMemoryMb) / 1024);
}

function option(name: string, lines: CostLine[]): CostOption {
  return { name, lines, totalUsd: lines.reduce((s, l) => s + l.usd, 0) };
}

function line(item: string, quantity: number, unit: string, price: number): CostLine {
  return { item, quantity, unit, usd: quantity * price };
}

/** Prices `runs` runs (default one million) of each option. */
export function compareCosts(unum: UnumRunUsage, sfn: StepFunctionsRunUsage, runs = 1_000_000, prices: Prices = PRICES): CostComparison {
  const { lambda, dynamodb, stepFunctionsStandard: std, stepFunctionsExpress: exp, lambdaDurableFunctions: durable, eventBridgeScheduler: scheduler } = prices;
  const schedules = unum.scheduledInvocations ?? 0;
  const tasks = [
    line('Lambda requests', sfn.taskRequests * runs, 'requests', lambda.perRequest),
    line('Lambda duration', sfn.taskGbSeconds * runs, 'GB-s', lambda.perGbSecond),
  ];
  const expressGbs = expressGbSeconds(sfn.expressDurationMs, sfn.expressMemoryMb ?? exp.minimumMemoryMb, prices) * runs;
  const notes = [
    'No free tier. DynamoDB storage is left out: run items expire by TTL.',
    'unum\'s DynamoDB writes include one write to the runs index per run, at its start (what listing runs costs); the run\'s final write writes no index entry.',
    'Step Functions figures assume the same Lambda work without unum\'s runtime (tasks = user code time).',
    'Lambda durable functions: one invocation runs every state as a step, billed for the tasks\' duration; a wait or callback would end that invocation and a later one replay it, which is left out, as are its data-written and data-retained charges.',
    'Every schedule a run creates is billed as the Scheduler invocation it becomes: a Wait\'s wake-up, and a callback Task\'s timeout or heartbeat check unless a completion deleted it first (one that fires invokes the Task\'s function, which finds the task completed if it was). A response to a task token adds an invocation of the task-response function, which waits for the Task\'s own.',
  ];
  if (expressGbs > exp.firstTierGbSeconds) notes.push('Express duration exceeds the first price tier: later tiers are cheaper, so its cost is overestimated.');
  return {
    runs,
    pricesDate: prices.date,
    region: prices.region,
    options: [
      option('unum', [
        line('Lambda requests', unum.lambdaRequests * runs, 'requests', lambda.perRequest),
        line('Lambda duration', unum.lambdaGbSeconds * runs, 'GB-s', lambda.perGbSecond),
        line('DynamoDB writes', unum.writeUnits * runs, 'WRU', dynamodb.perWriteRequestUnit),
        line('DynamoDB reads', unum.readUnits * runs, 'RRU', dynamodb.perReadRequestUnit),
        ...(schedules > 0 ? [line('Scheduler invocations', schedules * runs, 'invocations', scheduler.perScheduledInvocation)] : []),
      ]),
      option('Step Functions Standard', [
        ...tasks,
        line('State transitions', sfn.stateTransitions * runs, 'transitions', std.perStateTransition),
      ]),
      option('Step Functions Express', [
        ...tasks,
        line('Express requests', runs, 'requests', exp.perRequest),
        line('Express duration', expressGbs, 'GB-s', exp.perGbSecond),
      ]),
      option('Lambda durable functions', [
        line('Lambda requests', runs, 'requests', lambda.perRequest),
        line('Lambda duration', sfn.taskGbSeconds * runs, 'GB-s', lambda.perGbSecond),
        line('Durable operations', (sfn.stateTransitions + 1) * runs, 'operations', durable.perDurableOperation),
      ]),
    ],
    notes,
  };
}

const usd = (n: number): string => `$${n.toFixed(n >= 100 ? 2 : n >= 1 ? 3 : 4)}`;
const qty = (n: number): string => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 }));

/** The comparison as text: one block per option, then the totals side by side. */
export function formatCostComparison(c: CostComparison): string {
  const blocks = c.options.map((o) => [...o.lines.map((l) => [l.item, qty(l.quantity), l.unit, usd(l.usd)]), ['total', '', '', usd(o.totalUsd)]]);
  const w = [0, 1, 2, 3].map((i) => Math.max(...blocks.flat().map((r) => r[i].length)));
  const row = (r: string[]): string => `  ${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])} ${r[2].padEnd(w[2])}  ${r[3].padStart(w[3])}`;
  const out = [`Cost of ${qty(c.runs)} runs (${c.region}, prices of ${c.pricesDate})`, ''];
  c.options.forEach((o, i) => out.push(o.name, ...blocks[i].map(row), ''));
  const base = c.options[0].totalUsd;
  const nameWidth = Math.max(...c.options.map((o) => o.name.length));
  out.push('totals', ...c.options.map((o, i) => `  ${o.name.padEnd(nameWidth)}  ${usd(o.totalUsd).padStart(w[3])}${i === 0 ? '' : `  (${(o.totalUsd / base).toFixed(2)}x unum)`}`));
  out.push('', ...c.notes.map((n) => `note: ${n}`));
  return out.join('\n');
}
