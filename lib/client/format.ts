/** Human-readable text for run statuses and inspect reports (the CLI's output without `--json`). */
import { attemptsText } from '../runs/attempts';
import { causeSummary } from './cause';
import type { InspectReport } from './inspect';
import type { DeploymentSummary } from './deployments';
import type { RecoveryReport } from './recover';
import type { RunList, RunStatus } from './types';
import type { WaitingTask } from './waiting';

/** Rows of cells as aligned columns; the first row is the header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ')).join('\n');
}

function duration(from?: string, to?: string): string {
  if (!from) return '';
  const ms = (to ? Date.parse(to) : Date.now()) - Date.parse(from);
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(3)} s${to ? '' : ' so far'}` : '';
}

export function formatStatus(s: RunStatus): string {
  const rows: [string, string][] = [['run', s.workflowId], ['status', s.status]];
  if (s.deployment) rows.push(['deployment', s.deployment]);
  if (s.startedAt) rows.push(['started', s.startedAt]);
  if (s.finishedAt) rows.push(['finished', s.finishedAt]);
  if (s.startedAt) rows.push(['duration', duration(s.startedAt, s.finishedAt)]);
  if (s.redriveCount !== undefined) rows.push(['redrives', `${s.redriveCount}${s.redrivenAt ? ` (last ${s.redrivenAt})` : ''}`]);
  if (s.error) {
    // The state where the run ended (a Fail state, say), then the function that ran it.
    if (s.error.state !== undefined) rows.push(['state', s.error.state]);
    // A stopped or timed-out run names no node, and a stop request may give no error.
    if (s.error.node) rows.push(['node', s.error.node]);
    if (s.error.error) rows.push(['error', s.error.error]);
    if (s.error.cause) rows.push(['cause', s.error.cause]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** The callback Tasks a run waits on: one block each, the token in full (it is what answers the Task). */
export function formatWaitingTasks(tasks: readonly WaitingTask[]): string {
  return tasks.map((t) => [
    `waiting   callback Task ${t.node}${t.iteration > 0 ? ` (iteration ${t.iteration})` : ''} since ${t.since}${t.heartbeats > 0 ? `, ${t.heartbeats} heartbeat${t.heartbeats === 1 ? '' : 's'}` : ''}`,
    `token     ${t.taskToken}`,
  ].join('\n')).join('\n');
}

/** Long invocation names shortened for tables: they are 43-character hashes. */
const short = (name: string): string => (name.length > 12 ? `${name.slice(0, 10)}…` : name);

/** A state, with the node that runs it when that is named otherwise (`Fulfil (Fulfil.Join)`). */
const stateAt = (state: string | undefined, node: string): string => (state === undefined || state === node ? node : `${state} (${node})`);


export function formatInspectReport(r: InspectReport): string {
  const parts = [formatStatus(r.run)];
  if (r.history) {
    parts.push(`history (${r.history.length} transitions)\n${table([
      ['seq', 'at', 'state', 'index', 'iter', 'outcome', 'attempts', 'ms', 'next'],
      ...r.history.map((e) => [
        String(e.seq), e.at, stateAt(e.error?.state ?? e.state, e.node), e.indexes.length ? e.indexes.join('.') : '-', String(e.iteration),
        e.outcome, attemptsText(e.attempts, e.retried), e.durationMs === undefined ? '' : String(e.durationMs), (e.next ?? []).join(','),
      ]),
    ])}`);
  } else {
    parts.push('history  none (enable `history: true` on the workflow for a transition log)');
  }
  const fanIns = r.fanIns.length ? r.fanIns : r.table?.fanIns ?? [];
  if (fanIns.length) {
    parts.push(`fan-ins${r.fanIns.length ? '' : ' (table-wide)'}\n${table([
      ['origin', 'join', 'arrived', 'expected', 'done'],
      ...fanIns.map((f) => [f.origin ?? '?', short(f.join), String(f.arrived), String(f.expected), f.complete ? 'yes' : `${Math.floor((100 * f.arrived) / Math.max(f.expected, 1))}%`]),
    ])}`);
  }
  if (r.failures.length) {
    parts.push(`failures\n${table([
      ['state', 'error', 'cause', 'caught'],
      ...r.failures.map((f) => [stateAt(f.state, f.node), f.error, causeSummary(f.cause ?? ''), f.caught ? 'yes' : 'no']),
    ])}`);
  }
  if (r.waiting?.length) parts.push(formatWaitingTasks(r.waiting));
  if (r.table) {
    const t = r.table;
    parts.push([
      `table (scanned; ${t.attributable ? 'only this run has a record, so these are its items' : `${t.runs} run records, ${t.runsInFlight.length} running: counts are table-wide`})`,
      `  checkpoints  ${t.checkpoints}`,
      `  fan-ins      ${t.fanIns.length} open`,
    ].join('\n'));
  }
  return parts.join('\n\n');
}

/** What `recover` did: one row per dead letter, then the counts. */
export function formatRecoveryReport(r: RecoveryReport): string {
  const counts = `${r.replayed} replayed, ${r.finished} already finished, ${r.kept} kept in the queue`;
  if (r.deadLetters.length === 0) return `no dead letters (${counts})`;
  return `${table([
    ['outcome', 'run', 'node', 'detail'],
    ...r.deadLetters.map((d) => [d.outcome, d.workflowId ?? '-', d.node ?? '-', d.detail]),
  ])}\n${counts}`;
}

/** A listing: one row per run, newest first, the failed ones with their state and error; then how to go on. */
export function formatRunList(list: RunList): string {
  const rows = list.runs.map((r) => [
    r.workflowId, r.status, r.deployment ?? '-', r.startedAt ?? '-', r.finishedAt ?? '-', r.startedAt && r.finishedAt ? duration(r.startedAt, r.finishedAt) : '',
    r.error ? `${stateAt(r.error.state, r.error.node)}: ${r.error.error}` : '',
  ]);
  const text = rows.length ? table([['run', 'status', 'deployment', 'started', 'finished', 'duration', 'error'], ...rows]) : 'no runs';
  return list.nextToken ? `${text}\nmore: --next-token ${list.nextToken}` : text;
}

/** A deployments listing: one row per deployment, newest first, the live one marked. */
export function formatDeployments(deployments: readonly DeploymentSummary[]): string {
  if (deployments.length === 0) return 'no deployments recorded (the sweeper records each deploy of a workflow deployed by this unum-cdk)';
  return table([
    ['deployment', 'live', 'activated', 'superseded', 'removed', 'functions'],
    ...deployments.map((d) => [
      d.deployment, d.live ? 'live' : '', d.activatedAt, d.supersededAt ?? '-',
      d.removedAt ?? (d.removingAt ? `removing since ${d.removingAt}` : '-'), String(d.retainedFunctions),
    ]),
  ]);
}
