import * as path from 'node:path';
import type { FunctionProps, FunctionState } from '../definition';
import type { ErrorRulesState } from '../definition/error-rules';
import { atLeast, integerIn, type Problem } from './checks';
import { MAX_EVENT_AGE_SECONDS, MEMORY_MB, RETRY_ATTEMPTS, TIMEOUT_SECONDS } from './function-settings';
import { pathProblem } from './jsonpath';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ENV_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Set by Lambda or by the construct; a user value would be ignored or break the runtime. */
const RESERVED_ENV = new Set([
  '_HANDLER', '_X_AMZN_TRACE_ID', 'AWS_DEFAULT_REGION', 'AWS_REGION', 'AWS_EXECUTION_ENV', 'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 'AWS_LAMBDA_FUNCTION_VERSION', 'AWS_LAMBDA_INITIALIZATION_TYPE', 'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME', 'AWS_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API', 'LAMBDA_TASK_ROOT', 'LAMBDA_RUNTIME_DIR',
]);

/** Problems in a Task's or Fold's function settings, retry and catch rules. */
export function functionProblems(state: FunctionState): Problem[] {
  const p = state.functionProps;
  const out: Problem[] = [];
  const add = (field: string, message: string | undefined): void => {
    if (message) out.push({ field, message });
  };
  if (typeof p.entry !== 'string' || p.entry.length === 0) add('entry', 'the entry (handler module path) is empty');
  else if (!path.isAbsolute(p.entry)) add('entry', `'${p.entry}' is not an absolute path; use path.join(__dirname, '...')`);
  if (p.handler !== undefined && !IDENTIFIER.test(p.handler)) add('handler', `'${p.handler}' is not a valid export name`);
  add('memorySize', integerIn(p.memorySize, MEMORY_MB, ' MB'));
  add('timeoutSeconds', integerIn(p.timeoutSeconds, TIMEOUT_SECONDS, ' s'));
  add('retryAttempts', integerIn(p.retryAttempts, RETRY_ATTEMPTS));
  add('maxEventAgeSeconds', integerIn(p.maxEventAgeSeconds, MAX_EVENT_AGE_SECONDS, ' s'));
  for (const [key, value] of Object.entries(p.environment ?? {})) {
    if (!ENV_NAME.test(key)) add('environment', `'${key}' is not a valid environment variable name`);
    else if (RESERVED_ENV.has(key) || key.startsWith('UNUM_')) add('environment', `'${key}' is reserved (set by Lambda or unum)`);
    else if (typeof value !== 'string') add('environment', `the value of '${key}' is not a string`);
  }
  add('effects', effectsProblem(p.effects));
  out.push(...errorRuleProblems(state));
  return out;
}

/** Problems in the Retry and Catch rules of a Task, Fold, Parallel or Map. */
export function errorRuleProblems(state: ErrorRulesState): Problem[] {
  const out: Problem[] = [];
  const add = (field: string, message: string | undefined): void => {
    if (message) out.push({ field, message });
  };
  state.retries.forEach((r, i) => {
    const field = `retry[${i}]`;
    add(`${field}.errors`, errorsProblem(r.errors, i === state.retries.length - 1));
    add(`${field}.maxAttempts`, atLeast(r.maxAttempts, 0, true));
    add(`${field}.intervalSeconds`, atLeast(r.intervalSeconds, 1, true));
    add(`${field}.backoffRate`, atLeast(r.backoffRate, 1, false));
    add(`${field}.maxDelaySeconds`, atLeast(r.maxDelaySeconds, 1, true));
    if (r.jitter !== undefined && r.jitter !== 'FULL' && r.jitter !== 'NONE') add(`${field}.jitter`, `'${r.jitter}' is not 'FULL' or 'NONE'`);
  });
  state.catches.forEach((c, i) => {
    const field = `catch[${i}]`;
    add(`${field}.errors`, errorsProblem(c.props.errors, i === state.catches.length - 1));
    add(`${field}.resultPath`, pathProblem(c.props.resultPath, 'reference', true));
    if (c.handler === undefined) add(`${field}.handler`, 'the catch handler is an empty chain');
  });
  return out;
}

/** `effects.tables` must be DynamoDB tables (`ITable`s): something the construct can grant access to. */
function effectsProblem(effects: FunctionProps['effects']): string | undefined {
  if (effects === undefined) return undefined;
  if (typeof effects !== 'object' || effects === null) return 'effects must be an object { tables }';
  const tables: unknown = effects.tables ?? [];
  if (!Array.isArray(tables)) return 'effects.tables must be an array of DynamoDB tables';
  const bad = tables.findIndex((t) => typeof t !== 'object' || t === null || typeof (t as { grantReadWriteData?: unknown }).grantReadWriteData !== 'function');
  return bad < 0 ? undefined : `effects.tables[${bad}] is not a DynamoDB table (an aws-dynamodb ITable)`;
}

/** ASL's rule: a non-empty list of names, and `States.ALL` only alone in the last rule. */
function errorsProblem(errors: readonly string[] | undefined, last: boolean): string | undefined {
  if (errors === undefined) return last ? undefined : "the default ['States.ALL'] is only allowed in the last rule";
  if (!Array.isArray(errors) || errors.length === 0) return 'the error list is empty';
  if (errors.some((e) => typeof e !== 'string' || e.length === 0)) return 'error names must be non-empty strings';
  if (errors.includes('States.ALL') && (errors.length > 1 || !last)) return "'States.ALL' must appear alone, in the last rule";
  return undefined;
}
