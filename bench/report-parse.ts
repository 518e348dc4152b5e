/**
 * Reads a report (BENCHMARKS.md) back into the results it was rendered from:
 * the inverse of report.ts for everything the report shows. The results in
 * .unum/bench are not committed, so on a fresh checkout they are gone; reading
 * the committed report instead lets recording one figure (the fault campaign)
 * keep every other figure. Rendering what this returns gives the file back.
 */
import { absentReason, type ExpectedFigure, type ReportInput } from './report';
import type { FigureResult, Table, Target } from './types';

export interface ParsedReport extends Omit<ReportInput, 'figures' | 'expected'> {
  readonly figures: FigureResult[];
}

const MACHINE = /^Machine: (.+), (\d+) cores, ([\d.]+) GB RAM, Node\.js (\S+), (.+)\. Written (\S+)\.$/;
const LOAD = /^Load average \(1 \/ 5 \/ 15 min\) at the start: (.*); at the end: (.*)\. The machine is shared/;
const SECTION = /^## (\d+)\. (.*)$/;
const MEASURED = /^Measured (\S+) (?:by `(.*)` \(not part of `npm run bench`\)|in (quick|full) mode.*), ([\d.]+) s\.$/;
const NOT_MEASURED = /^\*\*not measured: (.*)\*\*$/;
const TARGET = /^- (met|\*\*TARGET MISSED\*\*): (.*?) — (.*)$/;

/** The report's machine, command and figures; figures it lists as never recorded are left out. */
export function parseReport(text: string, expected: readonly ExpectedFigure[]): ParsedReport {
  const lines = text.split('\n');
  const command = /^Command: `(.*)`$/.exec(lines.find((l) => l.startsWith('Command: ')) ?? '')?.[1];
  const m = MACHINE.exec(lines.find((l) => l.startsWith('Machine: ')) ?? '');
  if (command === undefined || !m) throw new Error('not a benchmark report: no Command or Machine line');
  const load = LOAD.exec(lines.find((l) => l.startsWith('Load average')) ?? '');
  const machine = {
    cpuModel: m[1] as string, cores: Number(m[2]), memoryGb: Number(m[3]), node: m[4] as string, platform: m[5] as string, date: m[6] as string,
    ...(load ? { load: { start: load[1] as string, end: load[2] as string } } : {}),
  };
  const starts = lines.flatMap((l, i) => (SECTION.test(l) ? [i] : []));
  const figures = starts.flatMap((start, k) => {
    const figure = parseSection(lines.slice(start, starts[k + 1] ?? lines.length), expected, machine.date);
    return figure ? [figure] : [];
  });
  return { machine, command, figures };
}

function parseSection(lines: readonly string[], expected: readonly ExpectedFigure[], date: string): FigureResult | undefined {
  const [, number, title] = SECTION.exec(lines[0] as string) as RegExpExecArray;
  const spec = expected.find((e) => e.number === Number(number));
  const base = { id: spec?.id ?? `figure-${number}`, number: Number(number), title: title as string };
  const body = lines.slice(1);
  while (body[0] === '') body.shift();
  const notMeasured = NOT_MEASURED.exec(body[0] ?? '');
  if (notMeasured) {
    const reason = notMeasured[1] as string;
    if (spec && reason === absentReason(spec)) return undefined;
    return { ...base, status: 'not measured', reason, quick: false, measuredAt: date, seconds: 0, tables: [] };
  }
  const measured = MEASURED.exec(body[0] ?? '');
  if (!measured) throw new Error(`figure ${number}: no "Measured ..." line`);
  const { tables, lists } = parseBlocks(body.slice(1));
  const targets = (lists.get('Targets:') ?? []).map(target);
  const method = lists.get('Method:') ?? [];
  const notes = lists.get('Notes:') ?? [];
  return {
    ...base,
    status: 'measured',
    quick: measured[3] === 'quick',
    measuredAt: measured[1] as string,
    seconds: Number(measured[4]),
    ...(measured[2] !== undefined ? { command: measured[2] } : {}),
    tables,
    ...(targets.length > 0 ? { targets } : {}),
    ...(method.length > 0 ? { method } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

const LISTS = ['Targets:', 'Method:', 'Notes:'];

/** The tables (each after its caption, if any; a blank line ends one), then the items of the lists under `Targets:`, `Method:`, `Notes:`. */
function parseBlocks(lines: readonly string[]): { tables: Table[]; lists: Map<string, string[]> } {
  const tables: Table[] = [];
  const lists = new Map<string, string[]>();
  let list: string[] | undefined;
  let caption: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    if (LISTS.includes(line)) {
      list = [];
      lists.set(line, list);
    } else if (list) {
      // An item's own line breaks continue it.
      if (line.startsWith('- ') || list.length === 0) list.push(line.replace(/^- /, ''));
      else list[list.length - 1] += `\n${line}`;
    } else if (line.startsWith('|')) {
      const rows: string[] = [];
      for (; lines[i]?.startsWith('|'); i++) rows.push(lines[i] as string);
      i--;
      const [headers = [], , ...cells] = rows.map(cellsOf);
      tables.push({ ...(caption !== undefined ? { caption } : {}), headers, rows: cells });
      caption = undefined;
    } else {
      caption = /^\*(.*)\*$/.exec(line)?.[1];
    }
  }
  return { tables, lists };
}

function target(item: string): Target {
  const t = TARGET.exec(`- ${item}`);
  if (!t) throw new Error(`not a target line: ${item}`);
  return { name: t[2] as string, met: t[1] === 'met', detail: t[3] as string };
}

/** The cells of a table row (`| a | b |`), with escaped pipes restored. */
function cellsOf(row: string): string[] {
  return row.slice(2, -2).split(' | ').map((c) => c.replace(/\\\|/g, '|'));
}
