/**
 * Every single crash point and every pair of crash points of the small
 * fault-test workflows (3-step chain, 3-way parallel + fan-in, map of 5 +
 * fan-in, nested map, choice, loop; a run that fails through Lambda's retries
 * and the failure recorder; and the cheapest of issue 14's shapes: Maps of 0
 * and 1 item, a Parallel of 1 branch, a workflow ending in a Map),
 * synthesized with the real DSL + construct and run on the local engine.
 * Every single point runs alone; the pairs run as a pairwise covering (every
 * pair of points together in some run of up to 14 points, at most 2 per
 * invocation). `npm run test:full` runs both for every workflow here;
 * `npm test` both for a chain and a parallel fan-in, and the single points
 * of a map fan-in and of the failing workflow (the random schedules of
 * random.test.ts cover the others in `npm test`);
 * `npm run test:faults -- --crash-points [--extended]` runs every pair alone
 * (one run per pair), of every shape.
 *
 * Singles and pairs are separate tests, each bounded only against a hang: a
 * loaded machine (20-30x) makes the larger ones take many minutes.
 */
import { enumerateCrashPoints, type EnumerationOptions } from '../../lib/testing/campaign';
import { FAULT_TARGETS, SHAPE_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';
import { FULL_DEPTH } from '../support/depth';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const CHEAP_SHAPES = ['EdgeMaps', 'Parallel1', 'EndsInMap'];
/** What the quick depth covers, as the header says: the single points and pairs of a chain and a parallel fan-in; the single points of a map fan-in and of a failing run. */
const PAIRED_PATTERNS = ['Chain3', 'Parallel3'];
const SINGLE_PATTERNS = ['Map5', 'Fails'];
const ALL_TARGETS = [...FAULT_TARGETS, ...SHAPE_TARGETS.filter((t) => CHEAP_SHAPES.includes(t.workflow))];
const TARGETS = FULL_DEPTH ? ALL_TARGETS : ALL_TARGETS.filter((t) => [...PAIRED_PATTERNS, ...SINGLE_PATTERNS].includes(t.workflow));
const faultEngine = useFaultEngine();

describe.each(TARGETS.map((t) => [t.workflow, t] as const))('%s', (name, target) => {
  const enumerate = async (options: EnumerationOptions): Promise<void> => {
    const s = await enumerateCrashPoints(faultEngine(), target, { ...options, setSize: 14, concurrency: 8 });
    const notes = [...s.notes].map(([n, k]) => `\n  note (${k}x): ${n}`).join('');
    process.stdout.write(`${name}: ${s.points} crash points (${s.singles} single runs); ${s.pairs} pairs of ${s.pairPoints} points in ${s.pairSchedules} runs; ${s.executions} executions, ${s.callFaults} crashes injected${notes}\n`);
    expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')}`)).toEqual([]);
    expect(s.singles + s.pairSchedules).toBeGreaterThan(0);
    expect(s.callFaults).toBeGreaterThan(0);
  };

  test('every crash point alone', () => enumerate({ pairs: 'none' }));

  if (FULL_DEPTH || PAIRED_PATTERNS.includes(name)) test('every pair of crash points together', () => enumerate({ singles: false, pairs: 'covering' }));
});
