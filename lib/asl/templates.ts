import type { Json } from '../../runtime/contract/ir';
import { templateProblem, type TemplateContext } from '../compiler/jsonpath';
import type { Reporter } from './errors';

/**
 * Checks a payload template (Parameters, ResultSelector, ItemSelector) as
 * the runtime will evaluate it: every `.$` value parses with the runtime's
 * grammar, calls supported intrinsic functions, and reads only the context
 * paths the runtime provides. Reported in ASL terms (`Parameters.x.$`).
 */
export function checkTemplate(report: Reporter, state: string, field: string, template: Json, where: TemplateContext): void {
  const problem = templateProblem(template, where);
  if (problem) report.fail(state, problem.key === undefined ? field : `${field}.${problem.key}`, problem.message);
}
