/** The machine a benchmark ran on, for the report header. */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly node: string;
  readonly platform: string;
  readonly date: string;
  /** Load averages when the run started and when it ended. */
  readonly load?: { readonly start: string; readonly end: string };
}

export function machineInfo(now: Date = new Date()): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: (cpus[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    date: now.toISOString(),
  };
}

/** 1, 5 and 15 minute load averages: other work on the machine skews times. */
export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' / ');
}

/** One line: CPU, cores, memory, Node.js and platform. */
export function machineLine(m: MachineInfo): string {
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB RAM, Node.js ${m.node}, ${m.platform}`;
}

/** `git rev-parse --short HEAD`, with "+ uncommitted changes" when the tree is dirty; undefined outside git. */
export function gitRevision(cwd: string): string | undefined {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  let head: string;
  try {
    head = git('rev-parse', '--short', 'HEAD');
  } catch {
    return undefined;
  }
  try {
    // --no-optional-locks: only look, never refresh the index of a tree someone else is working in.
    if (git('--no-optional-locks', 'status', '--porcelain') !== '') return `${head} + uncommitted changes`;
  } catch {
    // Status unknown: the commit alone.
  }
  return head;
}
