/**
 * A faster clock for tests of time-bound behaviour (TTLs, leases): from the
 * call on, `Date.now()` runs `factor` times as fast as real time, for the
 * runtime's TTLs and the TTL reaper alike. Timers (`setTimeout`) keep real
 * time, so `sleep` converts. Restored by jest's `restoreAllMocks`.
 *
 * A stall of this process (a loaded machine) would jump the scaled time by
 * `factor` times its length, and could outlast the handoff bound that Lambda
 * enforces in production (an event older than its maximum age is dropped): so
 * the clock advances at most `maxStepMs` (real) between two readings.
 */
export interface ScaledClock {
  readonly factor: number;
  /** Resolves after `ms` of the scaled clock. */
  sleep(ms: number): Promise<void>;
}

export function scaleClock(factor: number, maxStepMs = 2000): ScaledClock {
  const realNow = Date.now.bind(Date);
  let lastReal = realNow();
  let scaled = lastReal;
  jest.spyOn(Date, 'now').mockImplementation(() => {
    const real = realNow();
    scaled += Math.min(real - lastReal, maxStepMs) * factor;
    lastReal = real;
    return Math.round(scaled);
  });
  return { factor, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / factor)) };
}
