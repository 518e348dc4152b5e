/**
 * Compile-time checks of a state's query language (IR `IoSpec.queryLanguage`):
 * a JSONata state has `arguments` and `outputs` instead of JSONPath's five
 * fields, every `{% %}` expression in them parses (with the runtime's own
 * engine, so what synth accepts the runtime evaluates), and JSONata is used
 * where the runtime evaluates it: Pass, Wait, Fail, Parallel and Map states,
 * Tasks (not callback Tasks), whose Catch rules take no ResultPath, and
 * Choice rules, whose conditions must decide alike every time, as must what
 * a Parallel's branches and a Map's items are made of. The rest of JSONata
 * mode (Catch `Output`, `Assign`) is refused with a message that says so.
 */
import { JsonataSyntaxError, jsonataExpression, jsonataExpressions } from '../../runtime/language/jsonata';
import { jsonataEngine, namesUsed } from '../../runtime/language/jsonata-engine';
import type { AnyState, Choice, FailProps, MapState, Parallel } from '../definition';
import { IO_FIELDS, type IoProps } from '../definition/io';
import { jsonProblem, type Problem } from './checks';
import { isCallback } from './validate-callback';

const JSONATA_FIELDS = ['arguments', 'outputs'] as const;

/** The state's io props, when its kind has them. */
function ioOf(state: AnyState): IoProps | undefined {
  return 'props' in state && typeof state.props === 'object' && state.props !== null ? (state.props as IoProps) : undefined;
}

/** Each `{% %}` expression of `template` parses (with the runtime's engine), else a problem naming where. */
export function expressionProblems(template: unknown, field: string): Problem[] {
  const json = jsonProblem(template);
  if (json) return [{ field, message: json }];
  return jsonataExpressions(template as never, field).flatMap(({ where, expression }) => {
    try {
      jsonataEngine.check(expression);
      return [];
    } catch (e) {
      if (e instanceof JsonataSyntaxError) return [{ field, message: `${where}: ${e.message}` }];
      throw e;
    }
  });
}

/** JSONata's and Step Functions' functions whose value changes from one evaluation to the next (`$random` without a seed). */
const CHANGING = ['now', 'millis', 'uuid', 'random'];

/** The first function `expression` reads whose value changes from one evaluation to the next. */
function changingRead(expression: string): string | undefined {
  return namesUsed(expression).find((n) => CHANGING.includes(n.name) && !(n.name === 'random' && (n.args ?? 0) > 0))?.name;
}

/**
 * A JSONata Choice rule's condition. It is evaluated after its predecessor's
 * commit, from the committed value, by every execution of that node (a
 * duplicate included), so all must take the same rule: a condition may not
 * read the clock or a random value.
 */
function conditionProblems(condition: unknown, field: string): Problem[] {
  const expression = jsonataExpression(condition);
  if (expression === undefined) return [{ field, message: `a JSONata condition is a string '{% <expression> %}', got ${JSON.stringify(condition)}` }];
  const parse = expressionProblems(condition, field);
  if (parse.length > 0) return parse;
  const changing = changingRead(expression);
  if (!changing) return [];
  return [{
    field,
    message: `the condition reads $${changing}, whose value changes from one evaluation to the next; a Choice decides from its input after the state before it commits, and every execution must decide alike: compute the value in that state's outputs (or a Pass before the Choice) and test it here`,
  }];
}

/**
 * What a Parallel's branches or a Map's items are made of (`arguments`,
 * `items`, `itemSelector`): built after the commit of the state before, and
 * rebuilt from its checkpoint by a branch whose input was too large to send,
 * so they must come out alike every time, as a Choice's conditions must.
 */
function fanOutProblems(template: unknown, field: string): Problem[] {
  const parse = expressionProblems(template, field);
  if (parse.length > 0) return parse;
  for (const { where, expression } of jsonataExpressions(template as never, field)) {
    const changing = changingRead(expression);
    if (changing) {
      return [{ field, message: `${where} reads $${changing}, whose value changes from one evaluation to the next; the inputs of a Parallel's branches and a Map's items are built after the state before commits, and rebuilt alike later: compute the value in that state's outputs and read it here` }];
    }
  }
  return [];
}

/** A JSONata Parallel's or Map's own fields: what makes its branches' inputs or items, and `outputs`. */
function containerProblems(state: Parallel | MapState, io: IoProps): Problem[] {
  const out: Problem[] = [];
  if (state.kind === 'map') {
    if (io.arguments !== undefined) out.push({ field: 'arguments', message: 'a Map has no arguments: its items are items (default: the input) and each item\'s input is itemSelector' });
    if (state.props.itemsPath !== undefined) out.push({ field: 'itemsPath', message: 'a JSONata Map reads no path: give items, an array or a \'{% ... %}\' expression' });
    for (const field of ['items', 'itemSelector'] as const) if (state.props[field] !== undefined) out.push(...fanOutProblems(state.props[field], field));
  } else if (io.arguments !== undefined) out.push(...fanOutProblems(io.arguments, 'arguments'));
  if (io.outputs !== undefined) out.push(...expressionProblems(io.outputs, 'outputs'));
  return out;
}

function choiceProblems(state: Choice): Problem[] {
  const language: unknown = state.props.queryLanguage;
  if (language !== undefined && language !== 'JSONPath' && language !== 'JSONata') return [{ field: 'queryLanguage', message: `must be 'JSONPath' or 'JSONata', got ${JSON.stringify(language)}` }];
  return state.arms.flatMap((arm, i): Problem[] => {
    const field = `when[${i}]`;
    const c = arm.condition.ir;
    if (c.kind !== 'jsonata') return language === 'JSONata' ? [{ field, message: 'a JSONata Choice takes Condition.jsonata(\'{% ... %}\') rules' }] : [];
    if (language !== 'JSONata') return [{ field, message: 'Condition.jsonata() needs a JSONata Choice: create it with Choice.jsonata(id)' }];
    return conditionProblems(c.condition, `${field}.condition`);
  });
}

/** A JSONata Fail: `error` and `cause` strings, whose `{% %}` expressions parse; no paths. */
export function jsonataFailProblems(props: FailProps): Problem[] {
  const path = (['errorPath', 'causePath'] as const).find((f) => props[f] !== undefined);
  if (path) return [{ field: path, message: `a JSONata Fail reads no paths: give ${path === 'errorPath' ? 'error' : 'cause'} as a '{% ... %}' expression` }];
  return (['error', 'cause'] as const).flatMap((field): Problem[] => {
    const value: unknown = props[field];
    if (value === undefined) return [];
    if (typeof value !== 'string' || (field === 'error' && value === '')) return [{ field, message: `the ${field} must be a ${field === 'error' ? 'non-empty ' : ''}string or a '{% ... %}' expression` }];
    return expressionProblems(value, field);
  });
}

export function jsonataProblems(state: AnyState): Problem[] {
  if (state.kind === 'choice') return choiceProblems(state);
  const io = ioOf(state);
  if (!io) return [];
  const language: unknown = io.queryLanguage;
  if (language !== undefined && language !== 'JSONPath' && language !== 'JSONata') return [{ field: 'queryLanguage', message: `must be 'JSONPath' or 'JSONata', got ${JSON.stringify(language)}` }];
  if (language !== 'JSONata') {
    const stray = state.kind === 'map' && state.props.items !== undefined ? 'items' : JSONATA_FIELDS.find((f) => io[f] !== undefined);
    return stray ? [{ field: stray, message: `${stray} is a JSONata field: set queryLanguage: 'JSONata' (a JSONPath state has inputPath, parameters, resultSelector, resultPath and outputPath)` }] : [];
  }
  const jsonPath = IO_FIELDS.find((f) => io[f] !== undefined);
  if (jsonPath) return [{ field: jsonPath, message: `a JSONata state has arguments and outputs instead of ${jsonPath} (JSONPath's fields)` }];
  if (state.kind === 'fail') return [];
  const caught = state.kind === 'task' || state.kind === 'parallel' || state.kind === 'map' ? state.catches.findIndex((c) => c.props.resultPath !== undefined) : -1;
  if (caught >= 0) return [{ field: `catch[${caught}].resultPath`, message: 'a JSONata state\'s Catch rules take no resultPath: the error output ({ Error, Cause }) is the handler\'s input' }];
  if (state.kind === 'parallel' || state.kind === 'map') return containerProblems(state, io);
  if (state.kind !== 'task' && state.kind !== 'pass' && state.kind !== 'wait') return [{ field: 'queryLanguage', message: `JSONata on a ${state.kind} state is not supported yet: unum evaluates JSONata in Pass, Task, Choice, Wait, Fail, Parallel and Map states (docs/migrating-from-step-functions.md)` }];
  if (state.kind === 'wait' && io.arguments !== undefined) return [{ field: 'arguments', message: 'a Wait state has no arguments (it calls nothing): give its outputs' }];
  if (state.kind === 'task' && isCallback(state)) return [{ field: 'queryLanguage', message: 'JSONata on a Task that waits for its token is not supported yet' }];
  if (state.kind === 'pass' && io.arguments !== undefined) return [{ field: 'arguments', message: 'a Pass state has no arguments (it calls nothing): give its outputs' }];
  if (state.kind === 'pass' && state.props.result !== undefined) return [{ field: 'result', message: 'a JSONata Pass state gives its output in outputs, not result' }];
  return JSONATA_FIELDS.flatMap((f) => (io[f] === undefined ? [] : expressionProblems(io[f], f)));
}
