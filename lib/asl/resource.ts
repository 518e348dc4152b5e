import type { Json } from '../../runtime/contract/ir';
import type { Reporter } from './errors';
import type { AslState } from './types';

/** The Step Functions integration that invokes a Lambda function named in `Parameters.FunctionName`. */
export const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

/** The same, waiting for the task token the function received (`$$.Task.Token`) to be completed. */
export const LAMBDA_INVOKE_CALLBACK = `${LAMBDA_INVOKE}.waitForTaskToken`;

const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:([A-Za-z0-9_-]{1,64})(?::[A-Za-z0-9$_-]+)?$/;
const PLACEHOLDER = /^\$\{([^}]+)\}$/;
const BARE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What a Task's `Resource` designates. */
export interface TaskResource {
  /** `Resource` as written. */
  readonly resource: string;
  /** The function it names (see `AslTaskInfo.functionName`). */
  readonly functionName: string;
  /** Further lookup keys: for `lambda:invoke`, `Parameters.FunctionName` as written. */
  readonly aliases: readonly string[];
  /** True for `arn:aws:states:::lambda:invoke` (whose result is wrapped in `{ Payload, StatusCode, ... }`) and its `.waitForTaskToken`. */
  readonly lambdaInvoke: boolean;
  /** True for `arn:aws:states:::lambda:invoke.waitForTaskToken`: the result is what the token's completion sends. */
  readonly callback: boolean;
}

/**
 * Reads a Task's `Resource`: a bare unum function name (the unum dialect), a
 * Lambda function ARN (the qualifier, if any, is dropped: unum deploys the
 * function), a `${...}` template placeholder, or the `lambda:invoke`
 * integration. Other integrations and activities are rejected.
 */
export function taskResource(report: Reporter, name: string, state: AslState): TaskResource {
  const resource = state.Resource;
  if (typeof resource !== 'string') {
    // asl-validator accepts an object here (substituted before deployment by other tools).
    return report.fail(name, 'Resource', `${JSON.stringify(resource)} is not supported: Resource must be a string (a function name, a Lambda ARN or a \${...} placeholder)`);
  }
  if (resource === LAMBDA_INVOKE || resource === LAMBDA_INVOKE_CALLBACK) {
    const target = lambdaInvokeTarget(report, name, state.Parameters);
    return { resource, functionName: functionNameIn(report, name, 'Parameters.FunctionName', target), aliases: [target], lambdaInvoke: true, callback: resource === LAMBDA_INVOKE_CALLBACK };
  }
  return { resource, functionName: functionNameIn(report, name, 'Resource', resource), aliases: [], lambdaInvoke: false, callback: false };
}

function lambdaInvokeTarget(report: Reporter, name: string, parameters: Json | undefined): string {
  const p = (parameters ?? {}) as { [k: string]: Json };
  if (typeof p['FunctionName.$'] === 'string') {
    report.fail(name, 'Parameters.FunctionName.$', 'the function must be known at deploy time: use a fixed FunctionName');
  }
  if (typeof p.FunctionName !== 'string') report.fail(name, 'Parameters.FunctionName', `${LAMBDA_INVOKE} needs Parameters.FunctionName (a function name, ARN or \${...} placeholder)`);
  return p.FunctionName as string;
}

function functionNameIn(report: Reporter, name: string, field: string, value: string): string {
  const arn = LAMBDA_ARN.exec(value);
  if (arn) return arn[1];
  const placeholder = PLACEHOLDER.exec(value);
  if (placeholder) return placeholder[1];
  if (BARE_NAME.test(value)) return value;
  if (value.startsWith('arn:aws:states:::')) {
    report.fail(name, field, `the service integration '${value}' is not supported: a Task must call a Lambda function (a function name, a Lambda ARN, a \${...} placeholder, ${LAMBDA_INVOKE} or ${LAMBDA_INVOKE_CALLBACK})`);
  }
  if (/^arn:aws[a-z-]*:states:[^:]*:\d*:activity:/.test(value)) {
    report.fail(name, field, `activities are not supported ('${value}'): a Task must call a Lambda function`);
  }
  return report.fail(name, field, `'${value}' is not a Lambda function name, Lambda function ARN or \${...} placeholder`);
}
