/**
 * Seeded random fault schedules over a Map with Retry and Catch (issue 15):
 * odd items fail the state, which runs again once and is then caught; the
 * even items' later steps stop once the state failed, and crashes anywhere
 * (before and after the failure record, the notice, the decision) are
 * retried by Lambda. Every invariant of the checker holds, with and without
 * the services' failures. (The random plans never fault Lambda's last
 * attempt: the recorder's path is state-failure.int.test.ts's and
 * test/local/state-failures.int.test.ts's.)
 * Seeds 1..12 (`UNUM_FAULT_SEEDS` for more); a failure names its seed, which
 * `randomSchedules` over this one target replays.
 */
import { randomSchedules } from '../../lib/testing/campaign';
import { STATE_RULE_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine();

const seeds = Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? 12) }, (_, i) => i + 1);

test.each([false, true])('random fault schedules keep every invariant (service faults: %s)', async (serviceFaults) => {
  const s = await randomSchedules(faultEngine(), STATE_RULE_TARGETS, seeds, { concurrency: 4, serviceFaults });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, ${s.serviceFaults} service faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')}`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
});
