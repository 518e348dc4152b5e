import { jsonataExpression } from '../../runtime/language/jsonata';
import { type IoProps, QueryLanguage } from './io';
import { NextableState } from './nextable';
import type { Json, JsonPath, Untyped } from './types';

/** Anything with `toSeconds()`, such as aws-cdk-lib's `Duration` (this layer does not import aws-cdk-lib). */
export interface DurationLike {
  toSeconds(): number;
}

/** Seconds of a `Duration` or a number; anything else is returned as is, for the compiler to say what is wrong with it. */
export function durationSeconds(duration: DurationLike | number): number {
  return typeof duration === 'object' && duration !== null && typeof duration.toSeconds === 'function' ? duration.toSeconds() : (duration as number);
}

/** How long a `Wait` waits: exactly one of these. */
export type WaitTimeSpec =
  | { readonly seconds: number }
  | { readonly timestamp: string }
  | { readonly secondsPath: JsonPath }
  | { readonly timestampPath: JsonPath }
  | { readonly secondsExpression: string }
  | { readonly timestampExpression: string };

/** When a `Wait` ends, as Step Functions' `WaitTime`. */
export class WaitTime {
  /** A fixed duration, 0 seconds (no wait) to 1 year: a `Duration` or a number of seconds. */
  static duration(duration: DurationLike | number): WaitTime {
    return new WaitTime({ seconds: durationSeconds(duration) });
  }

  /**
   * Until a fixed time: an RFC 3339 timestamp such as `2026-01-01T09:00:00Z`
   * (a past one does not wait); in a `Wait.jsonata`, also a JSONata
   * expression that gives one (`{% $states.input.due %}`).
   */
  static timestamp(timestamp: string): WaitTime {
    return new WaitTime(jsonataExpression(timestamp) === undefined ? { timestamp } : { timestampExpression: timestamp });
  }

  /** In a `Wait.jsonata`: the number of seconds a JSONata expression gives (`{% $states.input.delay %}`), 0 to one year. */
  static seconds(expression: string): WaitTime {
    return new WaitTime({ secondsExpression: expression });
  }

  /** The number of seconds at a reference path of the state's input (0 to one year). */
  static secondsPath(path: JsonPath): WaitTime {
    return new WaitTime({ secondsPath: path });
  }

  /** Until the RFC 3339 timestamp at a reference path of the state's input (at most a year ahead). */
  static timestampPath(path: JsonPath): WaitTime {
    return new WaitTime({ timestampPath: path });
  }

  private constructor(readonly spec: WaitTimeSpec) {}
}

/** Properties of a `Wait`. */
export interface WaitProps {
  /** When the wait ends. */
  readonly time: WaitTime;
  /** Selects the state's input (also what `secondsPath` / `timestampPath` read). @default '$' */
  readonly inputPath?: JsonPath | null;
  /** Selects the state's output from its input. @default '$' */
  readonly outputPath?: JsonPath | null;
  /** The language of `time`'s expressions and of `outputs`. @default QueryLanguage.JSONPATH */
  readonly queryLanguage?: IoProps['queryLanguage'];
  /** JSONata: the state output, `{% %}` strings over `$states.input`. @default the input */
  readonly outputs?: Json;
}

/**
 * Waits, then passes its input on. No function runs meanwhile: the state
 * before it schedules the invocation of the state after it (EventBridge
 * Scheduler, see docs/writing-workflows.md, "Wait").
 */
export class Wait<I = Untyped> extends NextableState<I, I> {
  readonly kind = 'wait' as const;

  constructor(id: string, readonly props: WaitProps) {
    super(id);
  }

  /** A Wait in JSONata mode (aws-cdk-lib's `Wait.jsonata`): `WaitTime.seconds` / `timestamp` expressions, and `outputs`. */
  static jsonata<I = Untyped>(id: string, props: Omit<WaitProps, 'queryLanguage' | 'inputPath' | 'outputPath'>): Wait<I> {
    return new Wait<I>(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }
}
