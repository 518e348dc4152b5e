/**
 * Issue 18's run control under seeded random fault schedules (crashes,
 * timeouts, concurrent and late duplicates, re-runs, reordering): a stop
 * request racing the run's end leaves either the run's result or ABORTED,
 * written once; a run past its timeout ends TIMED_OUT once, whether the
 * recorder's schedule or an execution that finds the deadline passed writes
 * it. `npm run test:faults -- --seeds N` runs them among figure 9's set.
 */
import { randomSchedules } from '../../lib/local/campaign';
import { RUN_CONTROL_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine({ examples: false });

test('a stop racing the run and a run timeout keep every invariant under random faults', async () => {
  const seeds = Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? 12) }, (_, i) => i + 1);
  const s = await randomSchedules(faultEngine(), RUN_CONTROL_TARGETS, seeds, { concurrency: 6 });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')}`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
});
