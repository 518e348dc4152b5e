/**
 * Issue 18's run control under seeded random fault schedules (crashes,
 * timeouts, concurrent and late duplicates, re-runs, reordering): a stop
 * request racing the run's end leaves either the run's result or ABORTED,
 * written once; a run past its timeout ends TIMED_OUT once, whether the
 * recorder's schedule or an execution that finds the deadline passed writes
 * it; a callback completed twice at once and once late, racing its timeout,
 * completes once; a callback whose sent failure its Retry rule retries
 * completes each attempt once, the second with a new token; a run redriven
 * after its failure ends with one result.
 * `npm run test:faults -- --seeds N` runs them among figure 9's set.
 */
import { randomSchedules } from '../../lib/testing/campaign';
import { RUN_CONTROL_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine({ examples: false });

test('a stop racing the run, a run timeout, a callback completed twice, late and racing its timeout, a callback retried, and a redrive after a failure keep every invariant under random faults', async () => {
  const seeds = Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? 15) }, (_, i) => i + 1);
  // How each race ended, for the log (timing decides it, so no test depends on it).
  const ends = new Map<string, number>();
  const s = await randomSchedules(faultEngine(), RUN_CONTROL_TARGETS, seeds, {
    concurrency: 6,
    onSeed: (_seed, target, run) => {
      const end = `${target.workflow} ${run.record?.status ?? 'unfinished'} ${JSON.stringify(run.record?.result ?? null)}`;
      ends.set(end, (ends.get(end) ?? 0) + 1);
    },
  });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, injected ${JSON.stringify(s.injected)}; ends ${JSON.stringify([...ends])}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')}`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
});
