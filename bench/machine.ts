/** The machine a benchmark ran on, for the report header. */
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
