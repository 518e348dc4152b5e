/**
 * The clock the engine enforces function timeouts on: real time, except the
 * time during which the engine itself could not run. Lambda gives every
 * execution its own CPU; here every sandbox, the proxy all their calls go
 * through and DynamoDB Local share this machine's cores, so on a machine that
 * is oversubscribed (200 concurrent runs keep 64 sandboxes busy on 2 cores:
 * a load average near 60) an execution of a few DynamoDB calls took over
 * 40 s of real time, was killed as timed out, retried, killed again, and the
 * run FAILED. The clock ticks on the engine's main thread, the one every
 * sandbox's calls wait for: a tick that comes late counts for at most
 * `MAX_COUNTED_TICKS` ticks, so time passes as fast as the engine gets to run.
 * On a machine with CPU to spare, ticks are on time and this is real time: a
 * function that sleeps or loops past its timeout is killed then. What an
 * execution is told is left (`getRemainingTimeInMillis`, from which the
 * runtime takes its handler's deadline and decides whether a retry still fits)
 * follows the same clock: each alarm's real-time deadline, moved later at
 * every tick by the time that did not count, is shared with the sandbox.
 */

/** How often the clock looks at real time while something waits on it. */
const TICK_MS = 100;
/** A tick later than this many ticks counts as this many (an ordinary GC pause or timer jitter counts in full). */
const MAX_COUNTED_TICKS = 2;

interface Alarm {
  /** Engine time at which it fires. */
  readonly at: number;
  readonly fire: () => void;
  readonly deadline: Float64Array;
}

/** A pending alarm of the clock. */
export interface AlarmHandle {
  /** Epoch ms at which the alarm fires if the engine runs at full speed from now on, in memory shared with worker threads. */
  readonly deadline: Float64Array;
  cancel(): void;
}

export class EngineClock {
  private elapsedMs = 0;
  private lastTick = 0;
  private ticker?: NodeJS.Timeout;
  private readonly alarms = new Set<Alarm>();

  /** Calls `fire` once `ms` of engine time has passed. */
  after(ms: number, fire: () => void): AlarmHandle {
    this.start();
    const now = Date.now();
    // Counted from now, not from the last tick: an alarm never fires early.
    const sinceTick = Math.min(now - this.lastTick, MAX_COUNTED_TICKS * TICK_MS);
    const deadline = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
    deadline[0] = now + ms;
    const alarm: Alarm = { at: this.elapsedMs + sinceTick + ms, fire, deadline };
    this.alarms.add(alarm);
    return { deadline, cancel: () => this.remove(alarm) };
  }

  private start(): void {
    if (this.ticker) return;
    this.lastTick = Date.now();
    // A measurement only: what keeps the process alive is the sandbox running.
    this.ticker = setInterval(() => this.tick(), TICK_MS).unref();
  }

  private tick(): void {
    const now = Date.now();
    this.elapsedMs += Math.min(now - this.lastTick, MAX_COUNTED_TICKS * TICK_MS);
    this.lastTick = now;
    for (const alarm of [...this.alarms]) {
      alarm.deadline[0] = now + alarm.at - this.elapsedMs;
      if (alarm.at > this.elapsedMs) continue;
      this.remove(alarm);
      alarm.fire();
    }
  }

  private remove(alarm: Alarm): void {
    this.alarms.delete(alarm);
    if (this.alarms.size > 0 || !this.ticker) return;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
