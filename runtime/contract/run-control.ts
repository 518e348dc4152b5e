/**
 * The run-control function (runtime/control): the one door through which an
 * operator stops or redrives a run. A principal granted `grantStop` or
 * `grantRedrive` may invoke it and nothing else that writes: the function
 * makes exactly the conditional writes its action needs, so no grant lets a
 * principal write a run record of its choosing (a status, a result).
 *
 * Lambda does not tell a function who invoked it, so each action is an alias
 * of its own, and a grant names one alias: the function does what the alias
 * it was invoked through names, never what the request asks for.
 */

/** The actions, each the name of the alias that performs it. */
export const RUN_CONTROL_ACTIONS = ['stop', 'redrive'] as const;
export type RunControlAction = (typeof RUN_CONTROL_ACTIONS)[number];

/** Stands for the run-control function in its function name (lib/construct function-names.ts). */
export const RUN_CONTROL_NAME = 'unum-run-control';

/** What the `stop` alias is invoked with. */
export interface StopRequest {
  readonly workflowId: string;
  /** The run's error, as Step Functions' StopExecution `error`. */
  readonly error?: string;
  /** The run's cause, as Step Functions' StopExecution `cause`. */
  readonly cause?: string;
}

/** What the `redrive` alias is invoked with. */
export interface RedriveRequest {
  readonly workflowId: string;
  /** `latest`: move the run to the workflow's newest deployment when its node graph is the run's. */
  readonly deployment?: 'latest';
}

/** What a redrive did. */
export interface RedriveResult {
  readonly workflowId: string;
  /** How many times the run has been redriven, this time included. */
  readonly redriveCount: number;
  /** Parked invocations invoked again. */
  readonly resumed: number;
  /** The deployment the run resumes on; absent for a run started by an unum-cdk before deployments. */
  readonly deployment?: string;
  /** The deployment the run was on before this redrive moved it (`deployment: 'latest'`); absent when it stayed. */
  readonly movedFrom?: string;
}

/** The run states a refusal names (`NOT_FOUND`: no run record). */
export type RunControlStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT' | 'NOT_FOUND';

/**
 * The function's answer. `stopped`: whether this request stopped the run (false:
 * it was not RUNNING). `redriven`: what the redrive did. `refused`: the run
 * cannot be redriven now, and why; nothing changed. `invalid`: the request
 * (or the alias) is not one the function serves; nothing was read or written.
 */
export type RunControlAnswer =
  | { readonly stopped: boolean }
  | { readonly redriven: RedriveResult }
  | { readonly refused: { readonly status: RunControlStatus; readonly reason: string } }
  | { readonly invalid: string };
