import type { FunctionProps } from './function-props';
import { FunctionState } from './function-state';
import { type IoProps, type JsonataProps, QueryLanguage } from './io';
import type { Untyped } from './types';
import type { DurationLike } from './wait';

/** How a Task ends, in aws-stepfunctions' terms. */
export enum IntegrationPattern {
  /** When its handler returns: the handler's result is the Task's. */
  REQUEST_RESPONSE = 'REQUEST_RESPONSE',
  /**
   * When the task token the handler received (`unum.taskToken`, or
   * `$$.Task.Token` in `parameters`) is completed (`sendTaskSuccess` /
   * `sendTaskFailure`): the run waits meanwhile, with no function running.
   */
  WAIT_FOR_TASK_TOKEN = 'WAIT_FOR_TASK_TOKEN',
}

/** Properties of a `Task`. */
export interface TaskProps<O = Untyped> extends FunctionProps, IoProps {
  /**
   * An example of the handler's output, used only at compile time, e.g. to
   * check that a following Map's `itemsPath` selects an array.
   * @default no example; such checks are skipped
   */
  readonly outputExample?: O;
  /**
   * `WAIT_FOR_TASK_TOKEN`: the Task's result is what `sendTaskSuccess` sends
   * for its token, and `sendTaskFailure` fails it (its Retry rules apply,
   * running the Task again with a new token, then its Catch rules).
   * @default IntegrationPattern.REQUEST_RESPONSE
   */
  readonly integrationPattern?: IntegrationPattern;
  /**
   * `WAIT_FOR_TASK_TOKEN` only: the Task fails with `States.Timeout` when no
   * completion arrived this long after its handler started (1 s to 1 year;
   * a `Duration` or seconds). The run's items are kept at least this long.
   * @default one year
   */
  readonly timeout?: DurationLike | number;
  /**
   * `WAIT_FOR_TASK_TOKEN` only: the Task fails with `States.HeartbeatTimeout`
   * when no heartbeat (`sendTaskHeartbeat`) came for this long (less than `timeout`).
   * @default no heartbeat
   */
  readonly heartbeat?: DurationLike | number;
}

/**
 * One Lambda function running the export `handler` of `entry`.
 * `new Task<{ url: string }, { bytes: number }>('Fetch', { entry, handler: 'fetch' })`.
 */
export class Task<I = Untyped, O = Untyped> extends FunctionState<I, O> {
  readonly kind = 'task' as const;

  constructor(id: string, readonly props: TaskProps<O>) {
    super(id, props);
  }

  /**
   * A Task in JSONata mode (aws-cdk-lib's `LambdaInvoke.jsonata`): the
   * handler's input is `arguments` and the state output `outputs`, their
   * `{% %}` strings evaluated over `$states` (`input`, and in `outputs`
   * `result`, the handler's result).
   */
  static jsonata<I = Untyped, O = Untyped>(id: string, props: JsonataProps<TaskProps<O>>): Task<I, O> {
    return new Task<I, O>(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }
}
