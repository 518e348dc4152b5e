import { compileWorkflow } from '../compiler/compile';
import type { CompiledWorkflow, CompileOptions } from '../compiler/compiled';
import { UnumDefinitionError, WORKFLOW_LEVEL } from '../compiler/errors';
import { AslDefinitionError } from './errors';
import type { ImportedAsl } from './import';
import type { NodeNames } from './names';

/** DSL field names (as the compiler reports them) and the ASL fields they come from. */
const FIELDS: readonly [RegExp, string][] = [
  [/^next$/, 'Next'],
  [/^id$/, '(state name)'],
  [/^when\[(\d+)\]$/, 'Choices[$1]'],
  [/^when\[(\d+)\]\.condition$/, 'Choices[$1].Condition'],
  [/^otherwise$/, 'Default'],
  [/^branches\[(\d+)\]$/, 'Branches[$1]'],
  [/^itemProcessor$/, 'ItemProcessor'],
  [/^itemsPath$/, 'ItemsPath'],
  [/^itemSelector$/, 'ItemSelector'],
  [/^items$/, 'Items'],
  [/^arguments$/, 'Arguments'],
  [/^outputs$/, 'Output'],
  [/^maxConcurrency$/, 'MaxConcurrency'],
  [/^inputPath$/, 'InputPath'],
  [/^parameters$/, 'Parameters'],
  [/^resultSelector$/, 'ResultSelector'],
  [/^resultPath$/, 'ResultPath'],
  [/^outputPath$/, 'OutputPath'],
  [/^result$/, 'Result'],
  [/^error$/, 'Error'],
  [/^errorPath$/, 'ErrorPath'],
  [/^cause$/, 'Cause'],
  [/^causePath$/, 'CausePath'],
  [/^timeoutSeconds$/, 'TimeoutSeconds'],
  [/^timeout$/, 'TimeoutSeconds'],
  [/^heartbeat$/, 'HeartbeatSeconds'],
  [/^time\.seconds$/, 'Seconds'],
  [/^time\.timestamp$/, 'Timestamp'],
  [/^time\.secondsPath$/, 'SecondsPath'],
  [/^time\.timestampPath$/, 'TimestampPath'],
  [/^retry\[(\d+)\]\.errors$/, 'Retry[$1].ErrorEquals'],
  [/^retry\[(\d+)\]\.maxAttempts$/, 'Retry[$1].MaxAttempts'],
  [/^retry\[(\d+)\]\.intervalSeconds$/, 'Retry[$1].IntervalSeconds'],
  [/^retry\[(\d+)\]\.backoffRate$/, 'Retry[$1].BackoffRate'],
  [/^retry\[(\d+)\]\.maxDelaySeconds$/, 'Retry[$1].MaxDelaySeconds'],
  [/^retry\[(\d+)\]\.jitter$/, 'Retry[$1].JitterStrategy'],
  [/^catch\[(\d+)\]\.errors$/, 'Catch[$1].ErrorEquals'],
  [/^catch\[(\d+)\]\.resultPath$/, 'Catch[$1].ResultPath'],
  [/^catch\[(\d+)\]\.handler$/, 'Catch[$1].Next'],
  // Function settings come from options.tasks / defaultTask, not from the ASL.
  [/^(entry|handler|memorySize|environment|retryAttempts|maxEventAgeSeconds|outputExample)$/, 'tasks.$1'],
];

/** Suffixes of the nodes the compiler adds around a state (lib/compiler/names.ts `implicitName`). */
const IMPLICIT = /^(.*)\.(Origin|Join|Enter)$/;

/** Compiles an imported document; a problem the compiler finds is reported in ASL terms (`inAslTerms`). */
export function compileImported(imported: ImportedAsl, options?: CompileOptions): CompiledWorkflow {
  try {
    return compileWorkflow(imported.workflow, imported.definition, options);
  } catch (e) {
    throw e instanceof UnumDefinitionError ? inAslTerms(e, imported.names) : e;
  }
}

/**
 * A compiler finding about a node of an imported document, in the document's
 * terms: the ASL state name instead of the node name, the ASL field instead
 * of the DSL prop. A finding about the whole workflow is returned as it is.
 */
export function inAslTerms(e: UnumDefinitionError, names: NodeNames): UnumDefinitionError {
  if (e.node === WORKFLOW_LEVEL) return e;
  return new AslDefinitionError(e.workflow, stateOf(e.node, names), fieldOf(e.field), detailOf(e.detail, names));
}

function stateOf(node: string, names: NodeNames): string {
  const implicit = IMPLICIT.exec(node);
  return names.asl(implicit ? implicit[1] : node) ?? node;
}

function fieldOf(field: string): string {
  for (const [pattern, asl] of FIELDS) if (pattern.test(field)) return field.replace(pattern, asl);
  return field;
}

/** Node names quoted in the compiler's message, as ASL names. */
function detailOf(detail: string, names: NodeNames): string {
  let out = detail;
  for (const [asl, node] of names.renamed()) out = out.split(`'${node}'`).join(`'${asl}'`);
  return out;
}
