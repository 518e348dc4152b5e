/**
 * JSONata in Step Functions' JSONata mode (`QueryLanguage: 'JSONata'`): a
 * string `{% <expression> %}` anywhere in a state's `Arguments` or `Output`
 * (an object's value, an array's element, or the whole field) is a JSONata
 * expression, evaluated over the state's input with `$states` bound
 * (`input`, `result`, `errorOutput`, `context`); every other value is taken
 * as written. An expression that fails, or gives no value or a non-JSON one,
 * is `States.QueryEvaluationError`, naming the field.
 *
 * The engine (the `jsonata` package with Step Functions' own functions,
 * jsonata-engine.ts) is not imported here: it is bundled only into the
 * functions whose IR has JSONata, and registered by their bundle's entry
 * (`useJsonataEngine`), so a function without JSONata does not carry it.
 */
import { StatesError, runtimeError } from '../contract/errors';
import type { Json } from '../contract/ir';

/** What evaluates JSONata: compiles (with a cache) and evaluates over an input with bindings. */
export interface JsonataEngine {
  /** Throws (a `JsonataSyntaxError`) when `expression` does not compile. */
  check(expression: string): void;
  evaluate(expression: string, input: Json, bindings: Readonly<Record<string, unknown>>): Promise<unknown>;
}

/** `$states`: what a JSONata expression of a state reads. */
export interface StatesVariable {
  readonly input: Json;
  readonly result?: Json;
  readonly errorOutput?: Json;
  readonly context: Json;
}

/** A JSONata expression that does not compile: its position in the expression, and the parser's message. */
export class JsonataSyntaxError extends Error {
  constructor(readonly expression: string, readonly position: number | undefined, detail: string) {
    super(`JSONata expression {% ${expression} %} does not parse${position === undefined ? '' : ` at ${position}`}: ${detail}`);
  }
}

const OPEN = '{%';
const CLOSE = '%}';

/** The expression a `{% ... %}` string holds, or undefined for any other value. */
export function jsonataExpression(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith(OPEN) && value.endsWith(CLOSE) && value.length >= OPEN.length + CLOSE.length
    ? value.slice(OPEN.length, -CLOSE.length).trim()
    : undefined;
}

/** Every expression of a template, with where it is (`field`, then `.key` / `[i]`), for the checks at synth. */
export function jsonataExpressions(template: Json | undefined, field: string): { readonly where: string; readonly expression: string }[] {
  const expression = jsonataExpression(template);
  if (expression !== undefined) return [{ where: field, expression }];
  if (Array.isArray(template)) return template.flatMap((t, i) => jsonataExpressions(t, `${field}[${i}]`));
  if (typeof template === 'object' && template !== null) return Object.entries(template).flatMap(([k, v]) => jsonataExpressions(v, `${field}.${k}`));
  return [];
}

let engine: JsonataEngine | undefined;

/** Registers the engine this function evaluates JSONata with (its bundle's entry does, when its IR has JSONata). */
export function useJsonataEngine(e: JsonataEngine): void {
  engine = e;
}

function engineOrFail(): JsonataEngine {
  // The construct bundles the engine into every function whose IR has JSONata: this is a bundle built some other way.
  if (!engine) throw runtimeError('this function\'s IR has JSONata expressions, but its bundle has no JSONata engine (bundle it with unum-cdk\'s construct)');
  return engine;
}

const queryError = (where: string, message: string): StatesError => new StatesError('States.QueryEvaluationError', `${where}: ${message}`);

/** A JSONata result as JSON: sequences become arrays; undefined stays undefined; a function or a non-finite number is an error. */
function asJson(value: unknown, where: string): Json | undefined {
  if (value === undefined) return undefined;
  // JSONata gives its built-in functions and lambdas as marked objects.
  const jsonataFunction = typeof value === 'object' && value !== null && ('_jsonata_function' in value || '_jsonata_lambda' in value);
  if (typeof value === 'function' || jsonataFunction) throw queryError(where, 'the expression gives a function, not a JSON value');
  if (typeof value === 'number' && !Number.isFinite(value)) throw queryError(where, `the expression gives ${value}, not a JSON number`);
  if (Array.isArray(value)) return value.map((v, i) => asJson(v, `${where}[${i}]`)).filter((v): v is Json => v !== undefined);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) {
      const json = asJson(v, `${where}.${k}`);
      if (json !== undefined) out[k] = json;
    }
    return out;
  }
  return value as Json;
}

async function evaluateValue(template: Json, states: StatesVariable, where: string): Promise<Json | undefined> {
  const expression = jsonataExpression(template);
  if (expression !== undefined) {
    let value: unknown;
    try {
      value = await engineOrFail().evaluate(expression, states.input, { states });
    } catch (e) {
      if (e instanceof StatesError) throw e;
      throw queryError(where, e instanceof Error ? e.message : String(e));
    }
    return asJson(value, where);
  }
  if (Array.isArray(template)) {
    const items = await Promise.all(template.map((t, i) => evaluateValue(t, states, `${where}[${i}]`)));
    return items.filter((v): v is Json => v !== undefined);
  }
  if (typeof template === 'object' && template !== null) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(template)) {
      const value = await evaluateValue(v, states, `${where}.${k}`);
      // As in JSONata's own object constructor: a key whose value is nothing is left out.
      if (value !== undefined) out[k] = value;
    }
    return out;
  }
  return template;
}

/** `template` (a state's `Arguments` or `Output`) evaluated; `field` names it in errors. A whole field that gives nothing is an error. */
export async function evaluateJsonataTemplate(template: Json, states: StatesVariable, field: string): Promise<Json> {
  const value = await evaluateValue(template, states, field);
  if (value === undefined) throw queryError(field, 'the expression gives no value (undefined)');
  return value;
}

/** A Choice rule's `Condition`: a JSONata expression that must give a boolean. */
export async function evaluateJsonataCondition(condition: string, states: StatesVariable, field: string): Promise<boolean> {
  const value = await evaluateJsonataTemplate(condition, states, field);
  if (typeof value !== 'boolean') throw queryError(field, `the condition gives ${JSON.stringify(value).slice(0, 100)}, not a boolean`);
  return value;
}
