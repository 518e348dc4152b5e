import { timestamp } from '../../runtime/language/condition';
import { MAX_WAIT_SECONDS } from '../../runtime/contract/ir';
import type { Wait } from '../definition';
import type { Problem } from './checks';
import { pathProblem } from './jsonpath';
import { expressionProblems } from './validate-jsonata';

const TIME_FIELDS = ['seconds', 'timestamp', 'secondsPath', 'timestampPath', 'secondsExpression', 'timestampExpression'] as const;

/**
 * A Wait's problems: exactly one time, 0 s to 1 year (0, as in Step
 * Functions, does not wait), an RFC 3339 timestamp, reference paths; a
 * JSONata Wait's expressions instead of paths.
 */
export function waitProblems(state: Wait): Problem[] {
  const { time, inputPath, outputPath, queryLanguage } = state.props ?? {};
  const out: Problem[] = [];
  for (const [field, path] of [['inputPath', inputPath], ['outputPath', outputPath]] as const) {
    const message = pathProblem(path, 'path', true);
    if (message) out.push({ field, message });
  }
  const spec = (time as { spec?: Record<string, unknown> } | undefined)?.spec;
  const set = spec && typeof spec === 'object' ? TIME_FIELDS.filter((f) => spec[f] !== undefined) : [];
  if (!spec || set.length !== 1) {
    const found = set.length > 1 ? ` (found ${set.join(', ')})` : '';
    return [...out, { field: 'time', message: `a Wait needs exactly one of WaitTime.duration, timestamp, secondsPath or timestampPath (a JSONata Wait: seconds or timestamp)${found}` }];
  }
  const field = set[0];
  const value = spec[field];
  const jsonata = queryLanguage === 'JSONata';
  if (field === 'secondsExpression' || field === 'timestampExpression') {
    if (!jsonata) return [...out, { field: `time.${field}`, message: 'a JSONata expression gives the time only in a JSONata Wait: create it with Wait.jsonata(id, { time })' }];
    return [...out, ...expressionProblems(value, `time.${field}`)];
  }
  if (jsonata && (field === 'secondsPath' || field === 'timestampPath')) {
    return [...out, { field: `time.${field}`, message: 'a JSONata Wait reads no paths: give WaitTime.seconds(\'{% ... %}\') or WaitTime.timestamp(\'{% ... %}\')' }];
  }
  if (field === 'seconds' && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_WAIT_SECONDS)) {
    out.push({ field: 'time.seconds', message: `${String(value)} is not a whole number of seconds from 0 to ${MAX_WAIT_SECONDS} (one year)` });
  }
  if (field === 'timestamp' && timestamp(value) === undefined) {
    out.push({ field: 'time.timestamp', message: `${JSON.stringify(value)} is not an RFC 3339 timestamp (e.g. 2026-01-01T09:00:00Z)` });
  }
  if (field === 'secondsPath' || field === 'timestampPath') {
    const message = typeof value !== 'string' ? 'the path must be a string' : value.startsWith('$$') ? 'a context path cannot give the time: the state before the Wait reads it from the input' : pathProblem(value, 'reference', false);
    if (message) out.push({ field: `time.${field}`, message });
  }
  return out;
}
