import type { Json } from '../../runtime/contract/ir';
import type { IoProps } from '../definition/io';
import type { Reporter } from './errors';
import { LAMBDA_INVOKE, LAMBDA_INVOKE_CALLBACK } from './resource';
import { checkTemplate } from './templates';

/**
 * What `lambda:invoke` returns besides the function's result. Step Functions
 * also adds SdkHttpMetadata and SdkResponseMetadata (HTTP headers and request
 * ids): they have no meaning without the Lambda API call and are left out.
 */
const RESPONSE_FIELDS: Readonly<Record<string, Json>> = { ExecutedVersion: '$LATEST', StatusCode: 200 };

/** The raw result as `lambda:invoke` gives it: the function's result under `Payload`. */
const WRAP_RESULT: Json = { ExecutedVersion: '$LATEST', 'Payload.$': '$', StatusCode: 200 };

/**
 * Io props of a Task that calls `arn:aws:states:::lambda:invoke`, where
 * `Parameters` describes the API call rather than the function's input:
 * the input is `Parameters.Payload` (a template, or `Payload.$` a path,
 * composed with InputPath), and the result is the API response
 * `{ ExecutedVersion, Payload, StatusCode }`, which ResultSelector, ResultPath
 * and OutputPath see exactly as in Step Functions. A ResultSelector is
 * rewritten to read the function's result directly.
 */
export function lambdaInvokeIo(report: Reporter, name: string, io: IoProps, callback: boolean): IoProps {
  const parameters = (io.parameters ?? {}) as { [k: string]: Json };
  for (const key of Object.keys(parameters)) {
    if (!['FunctionName', 'Payload', 'Payload.$'].includes(key)) {
      report.fail(name, `Parameters.${key}`, `${LAMBDA_INVOKE} supports only FunctionName and Payload (the call is always an asynchronous unum invocation)`);
    }
  }
  const { parameters: _api, resultSelector, ...rest } = io;
  const input = payloadInput(report, name, parameters, io.inputPath, callback);
  // A callback's result is what its token's completion sends, not the function's response.
  if (callback) return { ...rest, ...input, ...(resultSelector === undefined ? {} : { resultSelector }) };
  return { ...rest, ...input, resultSelector: resultSelector === undefined ? WRAP_RESULT : unwrapSelector(report, name, resultSelector) };
}

/** Does a template read `$$.Task.Token` (in a path or an intrinsic call of a `.$` key)? */
function readsTaskToken(template: Json): boolean {
  if (Array.isArray(template)) return template.some(readsTaskToken);
  if (template === null || typeof template !== 'object') return false;
  return Object.entries(template).some(([key, value]) => (key.endsWith('.$') && typeof value === 'string' ? value.includes('$$.Task.Token') : readsTaskToken(value)));
}

function payloadInput(report: Reporter, name: string, parameters: { [k: string]: Json }, inputPath: string | null | undefined, callback: boolean): IoProps {
  const path = parameters['Payload.$'];
  if (callback && (path !== undefined || !readsTaskToken(parameters.Payload ?? {}))) {
    return report.fail(name, 'Parameters.Payload', `${LAMBDA_INVOKE_CALLBACK} must hand the task token to the function: put a "$$.Task.Token" path in Payload (e.g. "token.$": "$$.Task.Token")`);
  }
  if (path === undefined) {
    // Without Payload the function is invoked with an empty object.
    const payload = parameters.Payload ?? {};
    checkTemplate(report, name, 'Parameters.Payload', payload, callback ? 'task' : 'state');
    return { parameters: payload };
  }
  if (typeof path !== 'string' || !path.startsWith('$') || path.startsWith('$$')) {
    return report.fail(name, 'Parameters.Payload.$', `${JSON.stringify(path)} is not supported: use a reference path ('$...'), or Payload with a template object`);
  }
  if (path === '$') return {};
  if (inputPath === null) return report.fail(name, 'Parameters.Payload.$', 'InputPath null gives {} as the effective input: the path selects nothing in it');
  // Selecting `$.b` from the result of InputPath `$.a` is selecting `$.a.b`.
  return { inputPath: inputPath === undefined || inputPath === '$' ? path : `${inputPath}${path.slice(1)}` };
}

/**
 * A ResultSelector over the API response, rewritten over the function's result:
 * `$.Payload...` becomes `$...`, and `$.StatusCode` / `$.ExecutedVersion`
 * become their constant values. Any other reference to the response is rejected.
 */
function unwrapSelector(report: Reporter, name: string, template: Json): Json {
  if (Array.isArray(template)) return template.map((t) => unwrapSelector(report, name, t));
  if (template === null || typeof template !== 'object') return template;
  const out: { [k: string]: Json } = {};
  for (const [key, value] of Object.entries(template)) {
    if (!key.endsWith('.$') || typeof value !== 'string') {
      out[key] = unwrapSelector(report, name, value);
      continue;
    }
    const constant = /^\$\.(StatusCode|ExecutedVersion)$/.exec(value);
    if (constant) out[key.slice(0, -2)] = RESPONSE_FIELDS[constant[1]];
    else out[key] = unwrapPaths(report, name, `ResultSelector.${key}`, value);
  }
  return out;
}

/** Rewrites every reference path in a path or intrinsic call; context paths and quoted literals are left alone. */
function unwrapPaths(report: Reporter, name: string, field: string, expression: string): string {
  const parts = expression.split(/('(?:[^'\\]|\\.)*')/);
  return parts.map((part, i) => (i % 2 === 1 ? part : part.replace(/\$\$?[^,)\s]*/g, (path) => unwrapPath(report, name, field, path)))).join('');
}

function unwrapPath(report: Reporter, name: string, field: string, path: string): string {
  if (path.startsWith('$$')) return path;
  const payload = /^\$\.Payload(?=$|[.[])/.exec(path);
  if (!payload) return report.fail(name, field, `${path} reads the lambda:invoke response outside Payload, StatusCode and ExecutedVersion, which unum does not produce`);
  return `$${path.slice(payload[0].length)}`;
}
