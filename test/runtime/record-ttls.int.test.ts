/**
 * Every record a run writes expires when docs/architecture.md ("The table",
 * "Retention") says it does (issue 35, C), on the local engine: after a run
 * that writes each kind (checkpoints, fan-in shards, a state failure, a
 * callback Task's wait, an effect record, history) and one that fails (a
 * parked invocation), each item's TTL is compared with the run's recorded
 * start and end and the workflow's retentions. The retentions are as short
 * as the construct allows against a one-hour event age, where a run's lease
 * is renewed at its first step: a finished run's record still expires
 * `runRetention` after its end, not at the lease (about three retentions).
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, IntegrationPattern, Map, Pass, Task } from '../../lib/definition';
import { LIVE_ALIAS, qualifiedName, type NodeSettings } from '../../runtime/contract/ir';
import { type Item, keyOf, parseKey, ttlOf } from '../../runtime/contract/table';
import { HANDLERS, useAppEngine } from './fixtures/bounds/engine';

const HOUR = 3600;
/** The retentions: `checkpointRetention` R, `runRetention` RR (at least two handoffs: the promise is RR after the end). */
const R = 2 * HOUR;
const RR = 3 * HOUR;
/** A TTL is computed from the writer's clock a moment before or after the time the record shows; items round up to the minute. */
const SLACK = 300;

const task = (id: string, handler: string): Task => new Task(id, { entry: HANDLERS, handler });
const retentions = { checkpointRetention: Duration.seconds(R), runRetention: Duration.seconds(RR), maxEventAge: Duration.hours(1), history: true, removalPolicy: RemovalPolicy.DESTROY };

const engine = useAppEngine('RecordTtls', (stack) => {
  const checks = new Map('Checks', { itemsPath: '$.items' })
    .itemProcessor(task('Risky', 'risky'))
    .addRetry({ errors: ['OddItem'], maxAttempts: 1, intervalSeconds: 1 })
    .addCatch(task('Report', 'same'), { resultPath: '$.failure' });
  // Nobody answers: the Task times out (its wait record written first), and the catch goes on to the Map.
  const ask = new Task('Ask', { entry: HANDLERS, handler: 'ask', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.minutes(1), resultPath: '$.answer' })
    .addCatch(new Pass('NoAnswer').next(checks), { errors: ['States.Timeout'], resultPath: '$.timedOut' });
  new UnumWorkflow(stack, 'Kept', { definition: Definition.from(task('Stamp', 'stamp').next(ask)), ...retentions });
  new UnumWorkflow(stack, 'Broken', { definition: Definition.from(task('Take', 'same').next(task('Boom', 'boom'))), retryAttempts: 0, ...retentions });
});

const epoch = (iso: string | undefined): number => Date.parse(iso ?? '') / 1000;

/** The workflow's settings as its functions run them (the compiler's handoff H among them). */
function settingsOf(workflow: string): NodeSettings {
  const fn = engine().app.functions.get(qualifiedName(engine().workflow(workflow).entryFunction, LIVE_ALIAS));
  if (!fn?.ir) throw new Error(`no IR for ${workflow}`);
  return fn.ir.settings;
}

async function items(workflow: string): Promise<Item[]> {
  const { Items = [] } = await engine().dynamo.send(new ScanCommand({ TableName: engine().workflow(workflow).tableName, ConsistentRead: true }));
  return Items as Item[];
}

type Rule = readonly [min: number, max: number];

/**
 * Each kind's documented TTL, as a window: a run started at `start` and
 * ended at `end`, its lease at most `R + 2H` after its last renewal (so no
 * later than `end + R + 2H`).
 */
function documented(start: number, end: number, s: NodeSettings, failed: boolean): Readonly<Record<string, Rule>> {
  const margin = 2 * s.handoffSeconds;
  const finished = end + Math.max(RR, margin);
  const lease = end + R + margin;
  // Kept by the lease while the run lasts: the retention from the write, and no earlier than the lease.
  const item: Rule = [start + R, lease + 60];
  return {
    run: [finished, failed ? Math.max(finished, lease) : finished],
    checkpoint: item,
    shard: item,
    stateFailure: item,
    taskWait: item,
    effect: item,
    park: [finished, Math.max(finished, lease)],
    historyEntry: [start + RR, Math.max(end + RR, finished)],
    historyCounter: [start + RR, Math.max(finished, lease)],
  };
}

function kindOf(item: Item): string | undefined {
  const key = parseKey(keyOf(item) ?? '');
  if (key?.kind !== 'history') return key?.kind;
  return key.seq === undefined ? 'historyCounter' : 'historyEntry';
}

/** Each item of the table against its kind's rule: the kinds found, and the items outside their window. */
async function checkTtls(workflow: string, workflowId: string, failed: boolean): Promise<{ kinds: string[]; outside: unknown[] }> {
  const run = await engine().readRun(workflow, workflowId);
  const rules = documented(epoch(run.startedAt), epoch(run.finishedAt), settingsOf(workflow), failed);
  const kinds = new Set<string>();
  const outside: unknown[] = [];
  for (const item of await items(workflow)) {
    const kind = kindOf(item);
    if (kind === 'deployment') {
      // The one exception to "every item expires" while the deployment is kept (docs/architecture.md "Deployments").
      if (ttlOf(item) !== undefined) outside.push({ key: keyOf(item), ttl: ttlOf(item), rule: 'none while the deployment is kept' });
      continue;
    }
    const rule = kind === undefined ? undefined : rules[kind];
    if (!rule) continue;
    kinds.add(kind as string);
    const ttl = ttlOf(item);
    if (ttl === undefined || ttl < rule[0] - SLACK || ttl > rule[1] + SLACK) outside.push({ key: keyOf(item), kind, ttl, rule });
  }
  return { kinds: [...kinds].sort(), outside };
}

test('a run that writes every kind of record: each TTL is the documented one, the run record runRetention after the end', async () => {
  const id = engine().startRun('Kept', { items: [{ n: 1 }, { n: 2 }] }, { workflowId: 'kept' });
  expect(await engine().waitForRun('Kept', id)).toMatchObject({ status: 'SUCCEEDED', result: { timedOut: { Error: 'States.Timeout' }, failure: { Error: 'OddItem' } } });
  await engine().idle();
  const { kinds, outside } = await checkTtls('Kept', id, false);
  expect(outside).toEqual([]);
  expect(kinds).toEqual(['checkpoint', 'effect', 'historyCounter', 'historyEntry', 'run', 'shard', 'stateFailure', 'taskWait']);
});

test('a failed run: its record and its parked invocation live for the run retention after the end, and while a redrive may resume it', async () => {
  const id = engine().startRun('Broken', { x: 1 }, { workflowId: 'broken' });
  expect(await engine().waitForRun('Broken', id)).toMatchObject({ status: 'FAILED', error: { node: 'Boom' } });
  await engine().idle();
  const { kinds, outside } = await checkTtls('Broken', id, true);
  expect(outside).toEqual([]);
  expect(kinds).toEqual(expect.arrayContaining(['checkpoint', 'historyEntry', 'park', 'run']));
});
