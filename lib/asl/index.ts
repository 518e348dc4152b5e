/**
 * The Amazon States Language importer: a layer above the DSL (lib/definition)
 * and the compiler, which it uses; neither of them imports it.
 */
import type { CompiledWorkflow, CompileOptions } from '../compiler/compiled';
import type { Definition } from '../definition';
import { compileImported } from './compile';
import { importAsl } from './import';
import type { FromAslOptions } from './types';

export { AslDefinitionError, AslValidationError } from './errors';
export type { AslValidatorFinding } from './errors';
export { inAslTerms } from './compile';
export { importAsl, type ImportedAsl } from './import';
export { NodeNames } from './names';
export type { AslTaskInfo, AslTaskProps, FromAslOptions } from './types';

/**
 * Translates an Amazon States Language definition (JSON text or a parsed
 * object, JSONPath mode) into a unum workflow definition.
 *
 * The document is validated with asl-validator first; then every state is
 * translated (see docs/migrating-from-step-functions.md, "Supported states and fields") and the
 * result is compiled once, so every problem is reported here as an
 * `AslDefinitionError` naming the ASL state and field.
 *
 * `options.tasks` gives each Task's function (`entry`, `handler`, ...), keyed
 * by state name or by resource; `options.defaultTask` covers the rest.
 */
export function fromAsl(json: string | object, options: FromAslOptions = {}): Definition {
  const imported = importAsl(json, options);
  compileImported(imported);
  return imported.definition;
}

/**
 * `fromAsl` and `compileWorkflow` in one: the document compiled once (with
 * `compileOptions`), every problem reported in ASL terms.
 */
export function compileAsl(json: string | object, options: FromAslOptions = {}, compileOptions?: CompileOptions): CompiledWorkflow {
  return compileImported(importAsl(json, options), compileOptions);
}
