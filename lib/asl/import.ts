import { MAX_WAIT_SECONDS } from '../../runtime/contract/ir';
import { Definition } from '../definition';
import { buildScope } from './build';
import type { BuildContext } from './context';
import { Reporter, WORKFLOW_LEVEL } from './errors';
import { NodeNames } from './names';
import { readDocument } from './read';
import { forEachState } from './scopes';
import { TaskCatalog } from './task-catalog';
import type { AslScope, FromAslOptions } from './types';

/** An ASL document translated into a definition, with the names that map the compiler's findings back to the document. */
export interface ImportedAsl {
  /** The workflow name used in messages (`options.workflowName`). */
  readonly workflow: string;
  readonly definition: Definition;
  /** ASL state names and the node names they became. */
  readonly names: NodeNames;
}

/** Top-level fields besides StartAt and States (Comment, Version: informative). */
const TOP_LEVEL = new Set(['StartAt', 'States', 'Comment', 'Version', 'QueryLanguage', 'TimeoutSeconds']);

/**
 * Reads, validates and translates an ASL document (see `fromAsl`), without
 * compiling the result: every problem of the document itself is an
 * `AslDefinitionError`; what only the compiler finds is left to whoever
 * compiles it (`compileImported`).
 */
export function importAsl(json: string | object, options: FromAslOptions = {}): ImportedAsl {
  const workflow = options.workflowName ?? 'asl';
  const report = new Reporter(workflow);
  const doc = readDocument(workflow, json);
  for (const field of Object.keys(doc)) {
    if (!TOP_LEVEL.has(field)) {
      report.fail(WORKFLOW_LEVEL, field, `${field} is not supported at the top level`);
    }
  }
  const timeout = (doc as { TimeoutSeconds?: unknown }).TimeoutSeconds;
  if (timeout !== undefined && !(Number.isInteger(timeout) && (timeout as number) >= 1 && (timeout as number) <= MAX_WAIT_SECONDS)) {
    report.fail(WORKFLOW_LEVEL, 'TimeoutSeconds', `the run's timeout must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS} (one year), got ${JSON.stringify(timeout)}`);
  }
  const names = new NodeNames(stateNames(doc));
  const tasks = new TaskCatalog(report, options);
  const ctx: BuildContext = { report, names, tasks, buildScope: (scope) => buildScope(ctx, scope) };
  const definition = Definition.fromDocument(buildScope(ctx, doc), names.stateNames(), timeout as number | undefined);
  tasks.rejectUnmatchedKeys();
  return { workflow, definition, names };
}

function stateNames(doc: AslScope): string[] {
  const out: string[] = [];
  forEachState(doc, (name) => out.push(name));
  return out;
}
