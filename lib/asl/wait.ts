import type { Json } from '../../runtime/contract/ir';
import { Wait, WaitTime } from '../definition';
import type { StateReader } from './context';
import { ioProps } from './io';

/** The ASL fields that say when a Wait ends, and the `WaitTime` each becomes. */
const TIMES = {
  // A JSONata Wait's Seconds may be an expression, as in aws-cdk-lib's WaitTime.seconds.
  Seconds: (v: unknown) => (typeof v === 'string' ? WaitTime.seconds(v) : WaitTime.duration(v as number)),
  Timestamp: (v: unknown) => WaitTime.timestamp(v as string),
  SecondsPath: (v: unknown) => WaitTime.secondsPath(v as string),
  TimestampPath: (v: unknown) => WaitTime.timestampPath(v as string),
} as const;

/**
 * Wait: one of Seconds, Timestamp, SecondsPath, TimestampPath (the
 * compiler checks the value: 0 s to one year, RFC 3339, reference paths);
 * in a JSONata Wait, Seconds or Timestamp, either may be an expression, and
 * Output. No function sleeps: the state before it schedules the state after it.
 */
export const waitReader: StateReader = {
  create(ctx, name, state) {
    // asl-validator has checked that exactly one is there (WAIT_DURATION).
    const field = (Object.keys(TIMES) as (keyof typeof TIMES)[]).find((f) => state[f] !== undefined) as keyof typeof TIMES;
    const time = TIMES[field](state[field]);
    if (state.QueryLanguage === 'JSONata') return Wait.jsonata(ctx.names.node(name), { time, ...(state.Output !== undefined ? { outputs: state.Output as Json } : {}) });
    return new Wait(ctx.names.node(name), { time, ...ioProps(ctx.report, name, state, ['InputPath', 'OutputPath']) });
  },
};
