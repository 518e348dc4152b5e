/** Shared helpers of the ASL importer tests: compile a document to IR with stand-in handler settings. */
import * as path from 'path';
import type { Json, NodeIR } from '../../runtime/contract/ir';
import { compileWorkflow, type CompiledWorkflow } from '../../lib/compiler';
import { fromAsl, type FromAslOptions } from '../../lib/asl';

/** The handler module of the corpus runs; the unit tests only need an absolute path. */
export const ENTRY = path.join(__dirname, 'handlers', 'corpus.ts');

/** A JavaScript identifier from a function name (the corpus handlers export one function per name). */
export const exportName = (functionName: string): string => functionName.replace(/[^A-Za-z0-9_$]/g, '_');

export const DEFAULT_TASK: FromAslOptions['defaultTask'] = (t) => ({ entry: ENTRY, handler: exportName(t.functionName) });

/** fromAsl + compileWorkflow, with every Task mapped to `ENTRY` unless `options` says otherwise. */
export function compileAsl(doc: object | string, options: FromAslOptions = {}): CompiledWorkflow {
  const workflowName = options.workflowName ?? 'wf';
  return compileWorkflow(workflowName, fromAsl(doc, { defaultTask: DEFAULT_TASK, ...options, workflowName }));
}

/** The IR of one node. */
export function irOf(doc: object | string, node: string, options: FromAslOptions = {}): NodeIR {
  const compiled = compileAsl(doc, options);
  const found = compiled.nodes[node];
  if (!found) throw new Error(`no node '${node}' (have: ${Object.keys(compiled.nodes).join(', ')})`);
  return found.ir;
}

/** A one-scope state machine; the first state starts it. */
export function machine(states: Record<string, Json>, extra: Record<string, Json> = {}): Record<string, Json> {
  return { StartAt: Object.keys(states)[0], States: states, ...extra };
}

/** A Lambda Task state, with overrides; it ends its scope unless it has a Next. */
export function task(extra: Record<string, Json> = {}): Record<string, Json> {
  return { Type: 'Task', Resource: 'Fn', ...('Next' in extra ? {} : { End: true }), ...extra };
}

/** The message fromAsl throws for `doc` (fails the test if it does not throw). */
export function aslError(doc: object | string, options: FromAslOptions = {}): string {
  try {
    fromAsl(doc, { workflowName: 'wf', defaultTask: DEFAULT_TASK, ...options });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('fromAsl accepted the document');
}
