import { Definition } from '../../definition';
import { buildScope } from './build';
import { compileCheck } from './compile-check';
import type { BuildContext } from './context';
import { Reporter, WORKFLOW_LEVEL } from './errors';
import { NodeNames } from './names';
import { readDocument } from './read';
import { forEachState } from './scopes';
import { TaskCatalog } from './task-catalog';
import type { AslScope, FromAslOptions } from './types';

export { AslDefinitionError, AslValidationError } from './errors';
export type { AslValidatorFinding } from './errors';
export { NodeNames } from './names';
export type { AslTaskInfo, AslTaskProps, FromAslOptions } from './types';

/** Top-level fields besides StartAt and States (Comment, Version: informative). */
const TOP_LEVEL = new Set(['StartAt', 'States', 'Comment', 'Version', 'QueryLanguage']);

/**
 * Translates an Amazon States Language definition (JSON text or a parsed
 * object, JSONPath mode) into a unum workflow definition.
 *
 * The document is validated with asl-validator first; then every state is
 * translated (see the README, "Migrating from Step Functions", for the supported states and fields) and the
 * result is compiled once, so every problem is reported here as an
 * `AslDefinitionError` naming the ASL state and field.
 *
 * `options.tasks` gives each Task's function (`entry`, `handler`, ...), keyed
 * by state name or by resource; `options.defaultTask` covers the rest.
 */
export function fromAsl(json: string | object, options: FromAslOptions = {}): Definition {
  const workflow = options.workflowName ?? 'asl';
  const report = new Reporter(workflow);
  const doc = readDocument(workflow, json);
  for (const field of Object.keys(doc)) {
    if (!TOP_LEVEL.has(field)) {
      report.fail(WORKFLOW_LEVEL, field, field === 'TimeoutSeconds' ? 'a run-wide timeout is not supported: set TimeoutSeconds on the Tasks' : `${field} is not supported at the top level`);
    }
  }
  const names = new NodeNames(stateNames(doc));
  const tasks = new TaskCatalog(report, options);
  const ctx: BuildContext = { report, names, tasks, buildScope: (scope) => buildScope(ctx, scope) };
  const definition = Definition.from(buildScope(ctx, doc));
  tasks.rejectUnmatchedKeys();
  compileCheck(workflow, definition, names);
  return definition;
}

function stateNames(doc: AslScope): string[] {
  const out: string[] = [];
  forEachState(doc, (name) => out.push(name));
  return out;
}
