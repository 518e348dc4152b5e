/**
 * Figure 9, the external fault-campaign figure: how it is built from a
 * campaign summary, rendered when recorded or absent, merged into the saved
 * results, and kept by every bench run. No campaign runs here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { faultCampaignCommand, faultCampaignResult, type FaultCampaignRun } from '../../bench/fault-campaign';
import { FAULT_CAMPAIGN, FIGURES, isExternal, selectFigures } from '../../bench/figures';
import { renderReport } from '../../bench/report';
import { benchCommand, benchState, keptResults, mergeResults, readMeta, readResults, recordResults, renderSaved, saveState } from '../../bench/results';
import type { FigureResult } from '../../bench/types';
import { main } from '../faults/campaign';

const machine = { cpuModel: 'Test CPU', cores: 2, memoryGb: 4, node: 'v20.0.0', platform: 'linux', date: '2026-01-01T00:00:00.000Z' };

const figure = (id: string, number: number, extra: Partial<FigureResult> = {}): FigureResult => ({
  id, number, title: `Figure ${number}`, status: 'measured', quick: false, measuredAt: '2026-01-01T00:00:00.000Z', seconds: 1, tables: [], ...extra,
});

function campaign(over: Partial<FaultCampaignRun> = {}): FaultCampaignRun {
  return {
    seeds: 10_000,
    concurrencyUsed: 8,
    workflows: ['TextPipeline', 'Chain3', 'Map5'],
    summary: {
      schedules: 10_000,
      executions: 123_456,
      callFaults: 4_321,
      lateDuplicates: 987,
      failures: [],
      notes: new Map([['fan-in shard fanin#<join>#0 left to its TTL', 3]]),
      injected: { crash: 1_000, timeout: 500, duplicate: 2_000, late: 1_500, rerun: 700 },
    },
    wallSeconds: 3_600.25,
    scheduleSeconds: 3_500,
    finishedAt: new Date('2026-02-01T12:00:00.000Z'),
    commit: 'abc1234 + uncommitted changes',
    load: { start: '1.00 / 1.00 / 1.00', end: '2.00 / 1.50 / 1.00' },
    machine: 'Test CPU, 2 cores',
    ...over,
  };
}

describe('the fault-campaign figure', () => {
  it('is figure 9, external, with the command that produces it', () => {
    expect(FIGURES.map((f) => f.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [spec] = selectFigures('9');
    expect(spec).toBe(FAULT_CAMPAIGN);
    expect(isExternal(spec)).toBe(true);
    expect(spec.load).toBeUndefined();
    expect(FAULT_CAMPAIGN.external.command).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(FIGURES.filter(isExternal)).toEqual([FAULT_CAMPAIGN]);
  });

  it('gives the exact command, with --from and --concurrency only when given', () => {
    expect(faultCampaignCommand({ seeds: 10_000 })).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(faultCampaignCommand({ seeds: 500, from: 2001, concurrency: 4 })).toBe('npm run test:faults -- --seeds 500 --from 2001 --concurrency 4 --record');
  });

  it('builds a measured result from a campaign summary', () => {
    const r = faultCampaignResult(campaign());
    expect(r).toMatchObject({ id: 'fault-campaign', number: 9, status: 'measured', quick: false, measuredAt: '2026-02-01T12:00:00.000Z', seconds: 3_600.25 });
    expect(r.command).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(r.targets).toEqual([{ name: '0 invariant violations over 10,000 seeds', met: true, detail: expect.stringContaining('0 violation(s) over 10,000 seeds (1..10,000)') }]);
    const rows = r.tables.flatMap((t) => t.rows.map((row) => row.join(' | ')));
    expect(rows).toEqual(expect.arrayContaining([
      'Seeds | 1..10,000 (10,000)',
      'Workflows targeted | 3',
      'Executions (Lambda attempts, duplicates and re-runs included) | 123,456',
      '**Invariant violations** | **0**',
      'Seeds per second (synthesis excluded) | 2.86',
      expect.stringMatching(/^crash \| .* \| 1,000$/),
      expect.stringMatching(/^rerun \| .* \| 700$/),
      '**total** |  | 5,700',
    ]));
    expect(r.method?.[0]).toBe('Command: `npm run test:faults -- --seeds 10000 --record` at commit abc1234 + uncommitted changes, on Test CPU, 2 cores.');
    expect(r.method?.join('\n')).toContain('at the start: 1.00 / 1.00 / 1.00; at the end: 2.00 / 1.50 / 1.00');
    expect(r.method?.join('\n')).toMatch(/checks: 1\. exactly one result .*5\. a late duplicate/);
    expect(r.notes).toEqual(['3x (no invariant broken): fan-in shard fanin#<join>#0 left to its TTL']);
  });

  it('misses its target with a violation or with fewer than 10,000 seeds, and lists the failing seeds', () => {
    const failing = campaign({ summary: { ...campaign().summary, failures: [{ what: 'seed 42 (Map5)', workflowId: 'seed-42', violations: ['invariant 3: ...'] }] } });
    const r = faultCampaignResult(failing);
    expect(r.targets?.[0].met).toBe(false);
    expect(r.targets?.[0].detail).toContain('1 violation(s) over 10,000 seeds');
    expect(r.notes?.[0]).toBe('Failing seeds (replay one with `npm run test:faults -- --seed S`): seed 42 (Map5).');
    const short = faultCampaignResult(campaign({ seeds: 4, from: 11 }));
    expect(short.targets?.[0]).toMatchObject({ met: false, detail: expect.stringContaining('4 seeds (11..14)') });
    expect(short.targets?.[0].detail).toContain('fewer than 10,000 seeds');
  });
});

describe('npm run test:faults -- --record', () => {
  it('is refused without --seeds or beside --seed / --crash-points, before anything runs', async () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const argv of [['--record'], ['--seed', '3', '--record'], ['--seeds', '3', '--crash-points', '--record']]) {
        expect(await main(argv)).toBe(2);
      }
      expect(write).toHaveBeenCalledWith(expect.stringContaining('--record  with --seeds alone'));
    } finally {
      write.mockRestore();
    }
  });
});

describe('rendering the external figure', () => {
  it('says how to produce it when it was never recorded', () => {
    const md = renderReport({ machine, command: 'npm run bench', figures: [figure('cost', 8)], expected: FIGURES });
    const reason = 'produced by `npm run test:faults -- --seeds 10000 --record`, not by `npm run bench` (it takes about an hour); not recorded yet';
    expect(md).toContain(`- not measured: 9. ${FAULT_CAMPAIGN.title}: ${reason}`);
    expect(md).toContain(`## 9. ${FAULT_CAMPAIGN.title}\n\n**not measured: ${reason}**`);
    expect(md).toContain('- not measured: 1. Storage operations and capacity units per chain transition: not run in this report');
    // Sections in figure order, absent ones included.
    expect(md.indexOf('## 1. ')).toBeLessThan(md.indexOf('## 8. '));
    expect(md.indexOf('## 8. ')).toBeLessThan(md.indexOf('## 9. '));
  });

  it('renders a recorded campaign with its own command, tables and verdict', () => {
    const md = renderReport({ machine, command: 'npm run bench', figures: [faultCampaignResult(campaign()), figure('cost', 8)], expected: FIGURES });
    expect(md).toContain('Measured 2026-02-01T12:00:00.000Z by `npm run test:faults -- --seeds 10000 --record` (not part of `npm run bench`), 3600.3 s.');
    expect(md).toContain(`| 9. ${FAULT_CAMPAIGN.title} | 0 invariant violations over 10,000 seeds | met |`);
    expect(md).toContain('| **Invariant violations** | **0** |');
    expect(md).not.toContain('not recorded yet');
    // A bench figure still says its mode.
    expect(md).toContain('Measured 2026-01-01T00:00:00.000Z in full mode, 1.0 s.');
  });
});

describe('saved results', () => {
  const previous = [figure('transition-cost', 1), figure('fault-campaign', 9, { command: 'old' }), figure('cost', 8)];

  it('merges: a fresh result replaces only the one of its id', () => {
    const fresh = figure('fault-campaign', 9, { command: 'new' });
    const merged = mergeResults(previous, [fresh]);
    expect(merged.map((r) => r.id)).toEqual(['transition-cost', 'cost', 'fault-campaign']);
    expect(merged.find((r) => r.id === 'fault-campaign')).toBe(fresh);
    expect(merged.filter((r) => r.id === 'cost')).toEqual([previous[2]]);
    expect(mergeResults([], [fresh])).toEqual([fresh]);
  });

  it('a full bench run keeps the external figure alone; --only keeps every figure it did not run', () => {
    const ran = [figure('transition-cost', 1), figure('cost', 8)];
    expect(keptResults(previous, ran, false)).toEqual([previous[1]]);
    expect(keptResults(previous, [figure('cost', 8)], true)).toEqual([previous[0], previous[1]]);
    expect(keptResults([], ran, false)).toEqual([]);
  });

  it('names leftovers of earlier runs in the command line, not the external figure', () => {
    expect(benchCommand([], [previous[1]])).toBe('npm run bench');
    expect(benchCommand(['--only', '8'], [previous[0], previous[1]])).toBe('npm run bench -- --only 8 (figures 1 kept from an earlier run; each section gives its date and mode)');
    expect(benchCommand(['--only', '1'], [figure('a', 10), figure('b', 2), previous[1]])).toContain('(figures 2, 10 kept');
  });

  describe('on disk', () => {
    let root: string;
    beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-bench-results-')); });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('records into a missing state: creates results, meta and the report', () => {
      const state = benchState(root);
      const out = path.join(root, 'BENCHMARKS.md');
      const result = faultCampaignResult(campaign({ seeds: 4 }));
      recordResults(state, out, [result], () => ({ machine, command: 'npm run test:faults -- --seeds 4 --record' }));
      expect(readResults(state)).toEqual([JSON.parse(JSON.stringify(result))]);
      expect(readMeta(state)?.command).toBe('npm run test:faults -- --seeds 4 --record');
      const md = fs.readFileSync(out, 'utf8');
      expect(md).toContain('Command: `npm run test:faults -- --seeds 4 --record`');
      expect(md).toContain('| 9. Fault campaign: random fault schedules over every workflow | 0 invariant violations over 10,000 seeds | **TARGET MISSED** |');
    });

    it('records into an existing state: keeps the meta and the other figures, and renders like --render', () => {
      const state = benchState(root);
      const out = path.join(root, 'BENCHMARKS.md');
      const meta = { machine, command: 'npm run bench' };
      saveState(state, previous, meta);
      const make = jest.fn(() => ({ machine, command: 'unused' }));
      const result = faultCampaignResult(campaign());
      recordResults(state, out, [result], make);
      expect(make).not.toHaveBeenCalled();
      expect(readMeta(state)).toEqual(meta);
      expect(readResults(state).map((r) => [r.id, r.command])).toEqual([['transition-cost', undefined], ['cost', undefined], ['fault-campaign', result.command]]);
      const recorded = fs.readFileSync(out, 'utf8');
      renderSaved(state, out);
      expect(fs.readFileSync(out, 'utf8')).toBe(recorded);
      expect(recorded).toContain('Command: `npm run bench`');
    });
  });
});
