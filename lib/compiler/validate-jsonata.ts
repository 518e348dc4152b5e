/**
 * Compile-time checks of a state's query language (IR `IoSpec.queryLanguage`):
 * a JSONata state has `arguments` and `outputs` instead of JSONPath's five
 * fields, every `{% %}` expression in them parses (with the runtime's own
 * engine, so what synth accepts the runtime evaluates), and JSONata is used
 * where the runtime evaluates it: Pass states and Tasks (not callback
 * Tasks), whose Catch rules take no ResultPath. The rest of JSONata mode
 * (Choice conditions, Map, Parallel, Wait, Fail, Catch `Output`, `Assign`)
 * is refused with a message that says so.
 */
import { JsonataSyntaxError, jsonataExpressions } from '../../runtime/language/jsonata';
import { jsonataEngine } from '../../runtime/language/jsonata-engine';
import type { AnyState } from '../definition';
import { IO_FIELDS, type IoProps } from '../definition/io';
import { jsonProblem, type Problem } from './checks';
import { isCallback } from './validate-callback';

const JSONATA_FIELDS = ['arguments', 'outputs'] as const;

/** The state's io props, when its kind has them. */
function ioOf(state: AnyState): IoProps | undefined {
  return 'props' in state && typeof state.props === 'object' && state.props !== null ? (state.props as IoProps) : undefined;
}

function expressionProblems(template: unknown, field: string): Problem[] {
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

export function jsonataProblems(state: AnyState): Problem[] {
  const io = ioOf(state);
  if (!io) return [];
  const language: unknown = io.queryLanguage;
  if (language !== undefined && language !== 'JSONPath' && language !== 'JSONata') return [{ field: 'queryLanguage', message: `must be 'JSONPath' or 'JSONata', got ${JSON.stringify(language)}` }];
  if (language !== 'JSONata') {
    const stray = JSONATA_FIELDS.find((f) => io[f] !== undefined);
    return stray ? [{ field: stray, message: `${stray} is a JSONata field: set queryLanguage: 'JSONata' (a JSONPath state has inputPath, parameters, resultSelector, resultPath and outputPath)` }] : [];
  }
  const jsonPath = IO_FIELDS.find((f) => io[f] !== undefined);
  if (jsonPath) return [{ field: jsonPath, message: `a JSONata state has arguments and outputs instead of ${jsonPath} (JSONPath's fields)` }];
  if (state.kind !== 'task' && state.kind !== 'pass') return [{ field: 'queryLanguage', message: `JSONata on a ${state.kind} state is not supported yet: unum evaluates JSONata in Pass and Task states (docs/migrating-from-step-functions.md)` }];
  if (state.kind === 'task' && isCallback(state)) return [{ field: 'queryLanguage', message: 'JSONata on a Task that waits for its token is not supported yet' }];
  if (state.kind === 'pass' && io.arguments !== undefined) return [{ field: 'arguments', message: 'a Pass state has no arguments (it calls nothing): give its outputs' }];
  if (state.kind === 'pass' && state.props.result !== undefined) return [{ field: 'result', message: 'a JSONata Pass state gives its output in outputs, not result' }];
  const caught = state.kind === 'task' ? state.catches.findIndex((c) => c.props.resultPath !== undefined) : -1;
  if (caught >= 0) return [{ field: `catch[${caught}].resultPath`, message: 'a JSONata state\'s Catch rules take no resultPath: the error output ({ Error, Cause }) is the handler\'s input' }];
  return JSONATA_FIELDS.flatMap((f) => (io[f] === undefined ? [] : expressionProblems(io[f], f)));
}
