import * as path from 'path';
import { readCloudAssembly, type LocalFunction } from '../../lib/local/assembly';
import { EngineClock } from '../../lib/local/engine-clock';
import { FunctionRunner } from '../../lib/local/function-runner';

describe('engine clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  test('on a machine with CPU to spare it is real time', () => {
    const clock = new EngineClock();
    const fire = jest.fn();
    const alarm = clock.after(1000, fire);
    expect(alarm.deadline[0]).toBe(1_001_000);
    jest.advanceTimersByTime(900);
    expect(fire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(100);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  test('the time the engine could not run does not count, and the shared deadline moves later by it', () => {
    const clock = new EngineClock();
    const fire = jest.fn();
    const alarm = clock.after(1000, fire);
    jest.advanceTimersByTime(300);
    // The engine's thread gets no CPU for 10 s: its next tick comes that late and counts as two.
    jest.setSystemTime(Date.now() + 10_000);
    jest.advanceTimersByTime(100);
    expect(fire).not.toHaveBeenCalled();
    expect(alarm.deadline[0]).toBe(Date.now() + 500);
    jest.advanceTimersByTime(500);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  test('a cancelled alarm never fires', () => {
    const clock = new EngineClock();
    const fire = jest.fn();
    clock.after(100, fire).cancel();
    jest.advanceTimersByTime(1000);
    expect(fire).not.toHaveBeenCalled();
  });
});

describe('function timeouts on a starved engine', () => {
  const app = readCloudAssembly(path.join(__dirname, 'fixtures', 'emulator-app'));
  const runner = new FunctionRunner({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
  afterAll(() => runner.close());

  /** Blocks this thread, the engine's, as a machine too loaded to run it would (no CPU is used meanwhile). */
  const starve = (ms: number): void => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  };

  // 200 concurrent runs on 2 cores (a load average near 60) stretched executions of a second's work
  // past their 40 s timeout; killed three times, a run FAILED with Sandbox.Timedout.
  test('an execution is not killed, nor told its time is up, because the engine was starved of CPU', async () => {
    const sleeper = app.functions.get('emu-sleep') as LocalFunction;
    const fn: LocalFunction = { ...sleeper, handler: 'index.remainingAfterSleep', timeoutSeconds: 5 };
    const outcome = await runner.execute({
      executionId: 'starved',
      fn,
      // Still sleeping when the engine gets CPU again, so it reads its remaining time after that.
      payload: JSON.stringify({ ms: 6500 }),
      awsRequestId: 'r1',
      onStart: () => setImmediate(() => starve(6000)),
    });
    expect(outcome.kind).toBe('ok');
    // Of its 5 s, about the half second it ran after the starvation (and two ticks) is gone: far more than 2 s is left.
    expect(Number(outcome.kind === 'ok' ? outcome.payload : 0)).toBeGreaterThan(2000);
  }, 30_000);

  test('an execution that outlives its timeout while the engine runs is killed', async () => {
    const sleeper = app.functions.get('emu-sleep') as LocalFunction;
    const outcome = await runner.execute({ executionId: 'slow', fn: sleeper, payload: JSON.stringify({ ms: 60_000 }), awsRequestId: 'r2' });
    expect(outcome).toMatchObject({ kind: 'killed', reason: 'timeout', error: { errorType: 'Sandbox.Timedout' } });
  }, 30_000);
});
