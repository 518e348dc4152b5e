import type { Reporter } from './errors';
import type { AslState } from './types';

/** Fields every state kind may have (QueryLanguage: read.ts wrote each state's). */
const COMMON = ['Type', 'Comment', 'QueryLanguage'];

/** The fields of a JSONata state the importer translates, per state type (the runtime evaluates JSONata there). */
const SUPPORTED_JSONATA: Readonly<Record<string, readonly string[]>> = {
  Task: ['Next', 'End', 'Resource', 'Arguments', 'Output', 'Retry', 'Catch', 'TimeoutSeconds', 'HeartbeatSeconds'],
  Pass: ['Next', 'End', 'Output'],
  Choice: ['Choices', 'Default'],
  Wait: ['Next', 'End', 'Seconds', 'Timestamp', 'Output'],
  Fail: ['Error', 'Cause'],
  Succeed: ['Output'],
  Parallel: ['Next', 'End', 'Branches', 'Arguments', 'Output', 'Retry', 'Catch'],
  Map: ['Next', 'End', 'Iterator', 'ItemProcessor', 'Items', 'ItemSelector', 'MaxConcurrency', 'Output', 'Retry', 'Catch'],
};

/** The fields the importer translates, per state type. Anything else is rejected by name. */
const SUPPORTED: Readonly<Record<string, readonly string[]>> = {
  Task: ['Next', 'End', 'Resource', 'InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath', 'Retry', 'Catch', 'TimeoutSeconds', 'HeartbeatSeconds'],
  Pass: ['Next', 'End', 'Result', 'InputPath', 'Parameters', 'ResultPath', 'OutputPath'],
  Choice: ['Choices', 'Default', 'InputPath', 'OutputPath'],
  Parallel: ['Next', 'End', 'Branches', 'InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath', 'Retry', 'Catch'],
  Map: ['Next', 'End', 'Iterator', 'ItemProcessor', 'ItemsPath', 'ItemSelector', 'Parameters', 'MaxConcurrency', 'InputPath', 'ResultSelector', 'ResultPath', 'OutputPath', 'Retry', 'Catch'],
  Succeed: ['InputPath', 'OutputPath'],
  Fail: ['Error', 'ErrorPath', 'Cause', 'CausePath'],
  Wait: ['Next', 'End', 'Seconds', 'Timestamp', 'SecondsPath', 'TimestampPath', 'InputPath', 'OutputPath'],
};

/** Why a field the ASL specification allows has no unum translation. */
const REASONS: Readonly<Record<string, string>> = {
  HeartbeatSecondsPath: 'the heartbeat is fixed at deploy time: use HeartbeatSeconds',
  TimeoutSecondsPath: 'the timeout is fixed at deploy time: use TimeoutSeconds',
  Credentials: 'tasks run with their own function\'s role; assumed credentials are not supported',
  MaxConcurrencyPath: 'the concurrency bound is fixed at deploy time: use MaxConcurrency',
  ItemReader: 'distributed Map features (reading items from S3) are not supported',
  ItemBatcher: 'distributed Map features (item batching) are not supported',
  ResultWriter: 'distributed Map features (writing results to S3) are not supported',
  ToleratedFailurePercentage: 'a Map fails as soon as one item fails (no tolerated failures)',
  ToleratedFailurePercentagePath: 'a Map fails as soon as one item fails (no tolerated failures)',
  ToleratedFailureCount: 'a Map fails as soon as one item fails (no tolerated failures)',
  ToleratedFailureCountPath: 'a Map fails as soon as one item fails (no tolerated failures)',
  Label: 'distributed Map features (child execution labels) are not supported',
  Assign: 'workflow variables are not supported yet',
  Output: 'a JSONata Choice\'s Output is not supported: its rules decide on the Choice\'s input, so the output would need a step after the decision; give the Output to a Pass state after the Choice',
};

/**
 * Rejects a key of a nested object (a Retrier, a Catcher, a Choice rule, a
 * branch) that is not in `allowed`: asl-validator lets unknown keys through
 * there, and the importer must not drop them silently. `where` locates the
 * object, e.g. `Catch[0]`.
 */
export function checkKeys(report: Reporter, name: string, where: string, value: object, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const reason = REASONS[key] ?? `it is not one of ${allowed.join(', ')}`;
    report.fail(name, `${where}.${key}`, `${key} is not supported here: ${reason}`);
  }
}

/** Rejects the first field of `state` that the importer does not translate, naming it and saying why. */
export function checkFields(report: Reporter, name: string, state: AslState): void {
  const jsonata = state.QueryLanguage === 'JSONata';
  if (jsonata && SUPPORTED_JSONATA[state.Type] === undefined && SUPPORTED[state.Type] !== undefined) {
    report.fail(name, 'QueryLanguage', `JSONata on a ${state.Type} state is not supported yet: unum evaluates JSONata in Pass and Task states (docs/migrating-from-step-functions.md)`);
  }
  const supported = (jsonata ? SUPPORTED_JSONATA : SUPPORTED)[state.Type];
  if (supported === undefined) return;
  for (const field of Object.keys(state)) {
    if (COMMON.includes(field) || supported.includes(field)) continue;
    const reason = REASONS[field] ?? 'the importer has no translation for it';
    report.fail(name, field, `${field} is not supported on a ${state.Type} state: ${reason}`);
  }
}
