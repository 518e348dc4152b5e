import { compareCosts, expressGbSeconds, formatCostComparison, lambdaGbSeconds } from '../../lib/cost/report';
import { PRICES } from '../../lib/cost/prices';
import { formatMechanisms, priceMechanisms } from '../../lib/cost/mechanisms';

describe('billing units', () => {
  test('Lambda: duration rounded up to 1 ms, times memory', () => {
    // 123.4 ms -> 124 ms = 0.124 s; 256 MB = 0.25 GB; 0.124 * 0.25 = 0.031 GB-s
    expect(lambdaGbSeconds(123.4, 256)).toBeCloseTo(0.031, 12);
    // 1 ms at 1024 MB = 0.001 GB-s
    expect(lambdaGbSeconds(0.2, 1024)).toBeCloseTo(0.001, 12);
  });

  test('Express: 100 ms increments and a 64 MB minimum', () => {
    // 250 ms -> 300 ms = 0.3 s; 64 MB = 0.0625 GB; 0.3 * 0.0625 = 0.01875 GB-s
    expect(expressGbSeconds(250, 64)).toBeCloseTo(0.01875, 12);
    // 32 MB is billed as 64 MB; 100 ms exactly stays 100 ms: 0.1 * 0.0625 = 0.00625
    expect(expressGbSeconds(100, 32)).toBeCloseTo(0.00625, 12);
    // 0 ms still bills one increment
    expect(expressGbSeconds(0, 64)).toBeCloseTo(0.00625, 12);
  });
});

test('a run with Waits adds its Scheduler invocations to unum ($1.00 per million)', () => {
  const [unum] = compareCosts(
    { lambdaRequests: 4, lambdaGbSeconds: 0.1, writeUnits: 10, readUnits: 6, scheduledInvocations: 2 },
    { stateTransitions: 5, taskRequests: 3, taskGbSeconds: 0.075, expressDurationMs: 250 },
  ).options;
  // 2,000,000 invocations * $1.00/M = $2.00, on top of the $9.13334 below
  expect(unum.lines.at(-1)).toEqual({ item: 'Scheduler invocations', quantity: 2_000_000, unit: 'invocations', usd: expect.closeTo(2, 9) });
  expect(unum.totalUsd).toBeCloseTo(11.13334, 9);
});

describe('one million runs, priced by hand', () => {
  const c = compareCosts(
    { lambdaRequests: 4, lambdaGbSeconds: 0.1, writeUnits: 10, readUnits: 6 },
    { stateTransitions: 5, taskRequests: 3, taskGbSeconds: 0.075, expressDurationMs: 250 },
  );
  const [unum, standard, express, durable] = c.options;

  test('unum = Lambda + DynamoDB', () => {
    // requests   4,000,000 * $0.20/M          = $0.80
    // duration     100,000 GB-s * $0.0000133334 = $1.33334
    // writes    10,000,000 WRU * $0.625/M     = $6.25
    // reads      6,000,000 RRU * $0.125/M     = $0.75
    // total                                    = $9.13334
    expect(unum.lines.map((l) => [l.item, l.quantity])).toEqual([
      ['Lambda requests', 4_000_000], ['Lambda duration', 100_000], ['DynamoDB writes', 10_000_000], ['DynamoDB reads', 6_000_000],
    ]);
    expect(unum.lines.map((l) => l.usd)).toEqual([0.8, 1.33334, 6.25, 0.75].map((x) => expect.closeTo(x, 9)));
    expect(unum.totalUsd).toBeCloseTo(9.13334, 9);
  });

  test('Standard = Lambda tasks + state transitions', () => {
    // requests  3,000,000 * $0.20/M           = $0.60
    // duration     75,000 GB-s * $0.0000133334 = $1.000005
    // transitions 5,000,000 * $0.025/1,000    = $125.00
    // total                                    = $126.600005
    expect(standard.totalUsd).toBeCloseTo(126.600005, 9);
  });

  test('Express = Lambda tasks + requests + duration', () => {
    // tasks as above                           = $1.600005
    // requests  1,000,000 * $1.00/M           = $1.00
    // duration  1,000,000 * 0.01875 = 18,750 GB-s * $0.00001667 = $0.3125625
    // total                                    = $2.9125675
    expect(express.lines[3]).toEqual({ item: 'Express duration', quantity: expect.closeTo(18_750, 6), unit: 'GB-s', usd: expect.closeTo(0.3125625, 9) });
    expect(express.totalUsd).toBeCloseTo(2.9125675, 9);
    expect(c.notes.join(' ')).not.toMatch(/first price tier/);
    expect(c.notes.join(' ')).toMatch(/one write to the runs index per run, at its start/);
  });

  test('Lambda durable functions = one request + the tasks\' duration + a durable operation per state and the start', () => {
    // requests    1,000,000 * $0.20/M           = $0.20
    // duration       75,000 GB-s * $0.0000133334 = $1.000005
    // operations  6,000,000 * $8.00/M           = $48.00
    // total                                     = $49.200005
    expect(durable.name).toBe('Lambda durable functions');
    expect(durable.lines.map((l) => [l.item, l.quantity])).toEqual([
      ['Lambda requests', 1_000_000], ['Lambda duration', 75_000], ['Durable operations', 6_000_000],
    ]);
    expect(durable.totalUsd).toBeCloseTo(49.200005, 9);
  });

  test('runs scale linearly, and the text shows all four side by side', () => {
    expect(compareCosts({ lambdaRequests: 4, lambdaGbSeconds: 0.1, writeUnits: 10, readUnits: 6 },
      { stateTransitions: 5, taskRequests: 3, taskGbSeconds: 0.075, expressDurationMs: 250 }, 1000).options[0].totalUsd).toBeCloseTo(0.00913334, 12);
    const text = formatCostComparison(c);
    expect(text).toContain(`Cost of 1,000,000 runs (us-east-1, prices of ${PRICES.date})`);
    expect(text).toMatch(/totals\n {2}unum +\$9\.133\n {2}Step Functions Standard +\$126\.60 {2}\(13\.86x unum\)\n {2}Step Functions Express +\$2\.913 {2}\(0\.32x unum\)\n {2}Lambda durable functions +\$49\.200 {2}\(5\.39x unum\)/);
  });

  test('flags Express volumes beyond the first duration tier (1,000 GB-hours)', () => {
    // 1,000,000 runs * 60 s * 0.0625 GB = 3,750,000 GB-s > 3,600,000
    const big = compareCosts({ lambdaRequests: 1, lambdaGbSeconds: 0, writeUnits: 0, readUnits: 0 },
      { stateTransitions: 1, taskRequests: 1, taskGbSeconds: 0, expressDurationMs: 60_000 });
    expect(big.notes.join(' ')).toMatch(/first price tier/);
  });
});

test('mechanisms: each priced per million runs from its own usage; one not used is left out', () => {
  const none = { waitingRecords: 0, waitingRecordWriteUnits: 0, schedules: 0, responses: 0, responseGbSeconds: 0, completions: 0, completionGbSeconds: 0, completionReadUnits: 0, completionWriteUnits: 0 };
  const costs = priceMechanisms({
    waits: { schedules: 1, executions: 1, gbSeconds: 0, readUnits: 0, writeUnits: 1 },
    callbacks: none,
    runRecord: { reads: 2, readUnits: 1 },
  });
  expect(costs.map((c) => c.mechanism)).toEqual(['waits', 'run record']);
  // A scheduled invocation ($1.00/M), a Lambda request ($0.20/M), a write unit ($0.625/M); a read unit ($0.125/M).
  expect(costs[0]?.usd).toBeCloseTo(1.825, 9);
  expect(costs[1]?.usd).toBeCloseTo(0.125, 9);
  const callbacks = priceMechanisms({ waits: { schedules: 0, executions: 0, gbSeconds: 0, readUnits: 0, writeUnits: 0 }, callbacks: { ...none, waitingRecords: 1, waitingRecordWriteUnits: 1, schedules: 1, responses: 1, completions: 2 }, runRecord: { reads: 0, readUnits: 0 } });
  // One write, one scheduled invocation, three Lambda requests (the response and two Task executions).
  expect(callbacks).toEqual([expect.objectContaining({ mechanism: 'callbacks', usd: expect.closeTo(0.625 + 1 + 0.6, 9) })]);
  expect(formatMechanisms(costs, 1_000_000)).toEqual([
    '  By mechanism (per run; cost of 1,000,000 runs, part of unum\'s total):',
    '    waits:      1 schedule fired, 1 Wait-node execution (1 WRU, 0 RRU)  $1.825',
    '    run record: 2 reads by the run\'s executions (1 RRU)  $0.1250',
  ]);
});
