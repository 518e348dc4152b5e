/**
 * Figures 9 and 10, the external fault-campaign figures: how they are built
 * from a campaign summary, rendered when recorded or absent, merged into the
 * saved results (or the committed report read back), and kept by every bench
 * run. No campaign runs here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { faultCampaignCommand, faultCampaignResult, type FaultCampaignRun } from '../../bench/fault-campaign';
import { EFFECTS_FAULT_CAMPAIGN, EXTENDED_FAULT_CAMPAIGN, FAULT_CAMPAIGN, FIGURES, isExternal, REDEPLOY_FAULT_CAMPAIGN, selectFigures } from '../../bench/figures';
import { renderReport } from '../../bench/report';
import { parseReport } from '../../bench/report-parse';
import { benchCommand, benchState, keptResults, lastResults, mergeResults, readMeta, readResults, recordResults, renderSaved, saveState } from '../../bench/results';
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
      serviceFaults: 0,
      staleReads: 800,
      lateDuplicates: 987,
      failures: [],
      notes: new Map([['fan-in shard fanin#<join>#0 left to its TTL', 3]]),
      injected: { crash: 1_000, timeout: 500, duplicate: 2_000, late: 1_500, rerun: 700, stale: 800 },
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
  it('is figure 9, external, with the command that produces it; the extended campaign is figure 10', () => {
    expect(FIGURES.map((f) => f.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const [spec] = selectFigures('9');
    expect(spec).toBe(FAULT_CAMPAIGN);
    expect(isExternal(spec)).toBe(true);
    expect(spec.load).toBeUndefined();
    expect(FAULT_CAMPAIGN.external.command).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(EXTENDED_FAULT_CAMPAIGN.external.command).toBe('npm run test:faults -- --seeds 2000 --extended --service-faults --record');
    expect(FIGURES.filter(isExternal)).toEqual([FAULT_CAMPAIGN, EXTENDED_FAULT_CAMPAIGN, REDEPLOY_FAULT_CAMPAIGN, EFFECTS_FAULT_CAMPAIGN]);
    expect(faultCampaignCommand({ seeds: 2_000, redeploy: true })).toBe(REDEPLOY_FAULT_CAMPAIGN.external.command);
    expect(faultCampaignCommand({ seeds: 10_000, effects: true })).toBe(EFFECTS_FAULT_CAMPAIGN.external.command);
  });

  it('gives the exact command, with --from, --concurrency and the mode flags only when given', () => {
    expect(faultCampaignCommand({ seeds: 10_000 })).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(faultCampaignCommand({ seeds: 500, from: 2001, concurrency: 4 })).toBe('npm run test:faults -- --seeds 500 --from 2001 --concurrency 4 --record');
    expect(faultCampaignCommand({ seeds: 2_000, extended: true, serviceFaults: true })).toBe(EXTENDED_FAULT_CAMPAIGN.external.command);
    expect(faultCampaignCommand({ seeds: 50, extended: true, serviceFaults: false })).toBe('npm run test:faults -- --seeds 50 --extended --record');
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
      '**total** |  | 6,500',
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

describe('the extended fault-campaign figure', () => {
  const extended = (over: Partial<FaultCampaignRun> = {}): FaultCampaignRun => campaign({
    seeds: 2_000,
    extended: true,
    serviceFaults: true,
    summary: { ...campaign().summary, serviceFaults: 3_210, injected: { ...campaign().summary.injected, throughput: 10, throttling: 20, 'error-before': 30, 'error-after': 40, outage: 5, 'invoke-throttling': 6 } },
    ...over,
  });

  it('is figure 10, with the service faults counted by kind', () => {
    const r = faultCampaignResult(extended());
    expect(r).toMatchObject({ id: 'extended-fault-campaign', number: 10, title: EXTENDED_FAULT_CAMPAIGN.title });
    expect(r.command).toBe('npm run test:faults -- --seeds 2000 --extended --service-faults --record');
    expect(r.targets).toEqual([{ name: '0 invariant violations over 2,000 seeds of the extended set under service faults', met: true, detail: expect.stringContaining('0 violation(s) over 2,000 seeds') }]);
    const rows = r.tables.flatMap((t) => t.rows.map((row) => row.join(' | ')));
    expect(rows).toEqual(expect.arrayContaining([
      'Service faults seen by the fault proxy (throttling / 500 / unreachable, each attempt) | 3,210',
      expect.stringMatching(/^throughput \| .*ProvisionedThroughputExceededException.* \| 10$/),
      expect.stringMatching(/^error-after \| .*takes effect.* \| 40$/),
      expect.stringMatching(/^invoke-throttling \| .*429.* \| 6$/),
      '**total** |  | 6,611',
    ]));
    expect(r.method?.join('\n')).toContain('ServiceFaultPlan(paramsForSeed(s), serviceParamsForSeed(s))');
    expect(r.method?.join('\n')).toContain('`npm run test:faults -- --extended --service-faults --seed S` replays a seed exactly');
    expect(r.method?.join('\n')).toContain('a Map inside a Parallel branch (MapInParallel)');
  });

  it('misses its target without service faults, with fewer than 2,000 seeds or a violation; failing seeds replay with the mode flags', () => {
    expect(faultCampaignResult(extended({ serviceFaults: false })).targets?.[0]).toMatchObject({ met: false, detail: expect.stringContaining('without service faults') });
    expect(faultCampaignResult(extended({ seeds: 100 })).targets?.[0]).toMatchObject({ met: false, detail: expect.stringContaining('fewer than 2,000 seeds') });
    const failing = faultCampaignResult(extended({ summary: { ...extended().summary, failures: [{ what: 'seed 7 (EdgeMaps)', workflowId: 'seed-7', violations: ['invariant 1: ...'] }] } }));
    expect(failing.targets?.[0].met).toBe(false);
    expect(failing.notes?.[0]).toBe('Failing seeds (replay one with `npm run test:faults -- --extended --service-faults --seed S`): seed 7 (EdgeMaps).');
  });

  it('leaves figure 9 as it was: no service-fault rows without service faults', () => {
    const rows = faultCampaignResult(campaign()).tables.flatMap((t) => t.rows.map((row) => String(row[0])));
    expect(rows.some((r) => /Service faults|throughput|outage/.test(r))).toBe(false);
  });
});

describe('npm run test:faults -- --record', () => {
  it('is refused without --seeds, beside --seed / --crash-points, or with --service-faults alone, before anything runs', async () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const argv of [['--record'], ['--seed', '3', '--record'], ['--seeds', '3', '--crash-points', '--record'], ['--seeds', '3', '--service-faults', '--record']]) {
        expect(await main(argv)).toBe(2);
      }
      expect(write).toHaveBeenCalledWith(expect.stringContaining('--record    with --seeds alone'));
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
    expect(md).not.toContain(`- not measured: 9.`);
    // A bench figure still says its mode.
    expect(md).toContain('Measured 2026-01-01T00:00:00.000Z in full mode, 1.0 s.');
  });
});

describe('reading a report back', () => {
  const ROOT = path.join(__dirname, '..', '..');

  it('gives the figures and header of the committed BENCHMARKS.md: rendering them writes the same file', () => {
    const md = fs.readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');
    // Figures added since the file was written would be listed as never recorded: leave them out.
    const expected = FIGURES.filter((f) => md.includes(`\n## ${f.number}. `));
    const parsed = parseReport(md, expected);
    expect(parsed.figures.map((f) => f.id)).toEqual(expect.arrayContaining(['transition-cost', 'fault-campaign']));
    expect(parsed.figures.find((f) => f.id === 'fault-campaign')?.command).toBe('npm run test:faults -- --seeds 10000 --record');
    expect(renderReport({ ...parsed, expected })).toBe(md);
  });

  it('reads back every kind of section: modes, captions, escaped pipes, lists with line breaks, not measured, never recorded', () => {
    const input = {
      machine: { ...machine, load: { start: '1.00 / 2.00 / 3.00', end: '4.00 / 5.00 / 6.00' } },
      command: 'npm run bench -- --only 1',
      figures: [
        figure('transition-cost', 1, {
          quick: true,
          seconds: 12.25,
          tables: [{ caption: 'Calls | units', headers: ['Call', 'Calls'], rows: [['Get|Item', '1'], ['', '2 ms']] }, { headers: ['A'], rows: [['x']] }],
          targets: [{ name: 'one write on the path', met: false, detail: '2 writes — too many' }, { name: 'fast', met: true, detail: '1 ms' }],
          method: ['first', 'second\nwith a line break'],
          notes: ['a note'],
        }),
        { ...figure('fan-in', 2), status: 'not measured' as const, reason: 'failed: boom', tables: [] },
        faultCampaignResult(campaign()),
      ],
      expected: FIGURES,
    };
    const md = renderReport(input);
    const parsed = parseReport(md, FIGURES);
    expect(parsed.machine).toEqual(input.machine);
    expect(parsed.figures.map((f) => [f.number, f.status])).toEqual([[1, 'measured'], [2, 'not measured'], [9, 'measured']]);
    expect(parsed.figures[0]?.tables[0]?.rows[0]).toEqual(['Get|Item', '1']);
    expect(parsed.figures[0]?.targets).toEqual(input.figures[0]?.targets);
    expect(renderReport({ ...parsed, expected: FIGURES })).toBe(md);
  });

  it('refuses a file that is no report', () => {
    expect(() => parseReport('# notes\n', FIGURES)).toThrow('not a benchmark report');
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

    it('records into a fresh checkout (no .unum/bench): the committed report keeps its header and its other figures', () => {
      const state = benchState(root);
      const out = path.join(root, 'BENCHMARKS.md');
      const meta = { machine, command: 'npm run bench' };
      fs.writeFileSync(out, renderReport({ ...meta, figures: previous, expected: FIGURES }));
      expect(lastResults(state, out).figures.map((f) => f.id)).toEqual(['transition-cost', 'cost', 'fault-campaign']);
      const make = jest.fn(() => ({ machine, command: 'unused' }));
      const result = faultCampaignResult(campaign({ seeds: 2_000, extended: true, serviceFaults: true }));
      recordResults(state, out, [result], make);
      expect(make).not.toHaveBeenCalled();
      expect(readMeta(state)?.command).toBe('npm run bench');
      expect(readResults(state).map((r) => r.id)).toEqual(['transition-cost', 'cost', 'fault-campaign', 'extended-fault-campaign']);
      const md = fs.readFileSync(out, 'utf8');
      expect(md).toContain('## 9. Figure 9');
      expect(md).toContain(`## 10. ${EXTENDED_FAULT_CAMPAIGN.title}\n\nMeasured`);
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
