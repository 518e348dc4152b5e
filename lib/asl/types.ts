import type { Json } from '../../runtime/contract/ir';
import type { TaskProps } from '../definition';
import type { IoProps } from '../definition/io';

/** A state as it appears in ASL JSON: a plain object read field by field. */
export type AslState = { readonly Type: string } & { readonly [field: string]: Json };

/** A `States` object with its `StartAt`: the top level, a Parallel branch or a Map item processor. */
export interface AslScope {
  readonly StartAt: string;
  readonly States: { readonly [name: string]: AslState };
}

/** Deployment settings of the function that runs an ASL Task (the io fields come from the ASL itself). */
export type AslTaskProps = Omit<TaskProps, keyof IoProps>;

/** What a Task state says about the function it calls, given to a `defaultTask` function. */
export interface AslTaskInfo {
  /** The ASL state name. */
  readonly state: string;
  /** The `Resource` string as written (for `lambda:invoke`, the integration ARN). */
  readonly resource: string;
  /**
   * The function the state names: a bare unum function name, the name in a
   * Lambda ARN, the variable of a `${...}` placeholder, or the
   * `Parameters.FunctionName` of an `arn:aws:states:::lambda:invoke` task.
   */
  readonly functionName: string;
}

/** Options of `fromAsl`. */
export interface FromAslOptions {
  /** Name used in error messages and for the compile check. @default 'asl' */
  readonly workflowName?: string;
  /**
   * Function settings per Task, keyed by ASL state name or by resource: the
   * `Resource` string as written, or the function it names (see
   * `AslTaskInfo.functionName`). The state name is looked up first.
   */
  readonly tasks?: { readonly [stateNameOrResource: string]: AslTaskProps };
  /** Settings of Tasks that `tasks` does not cover, or a function computing them. @default none: such a Task is an error */
  readonly defaultTask?: AslTaskProps | ((task: AslTaskInfo) => AslTaskProps);
}
