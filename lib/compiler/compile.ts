import { Definition, type IChainable } from '../definition';
import type { CompiledWorkflow, CompileOptions } from './compiled';
import { Emitter, type WorkflowSettings } from './emit';
import { UnumDefinitionError, WORKFLOW_LEVEL } from './errors';
import { rejectLoopsWithoutExit } from './exits';
import { buildGraph } from './graph';
import { nameProblem } from './names';
import { atLeast, integerIn } from './checks';
import { validateStates } from './validate';
import { ENVELOPE_BOUNDS, MAX_WAIT_SECONDS } from '../../runtime/contract/ir';

const DAY = 86400;

/**
 * Compiles a workflow definition into one IR per function node.
 * Pure and deterministic: the same definition gives byte-identical JSON.
 * Throws `UnumDefinitionError` naming the workflow, node and field of the
 * first problem found; non-fatal findings are returned in `warnings`.
 */
export function compileWorkflow(workflowName: string, definition: IChainable | Definition, options: CompileOptions = {}): CompiledWorkflow {
  const nameIssue = nameProblem(workflowName);
  if (nameIssue) throw new UnumDefinitionError(String(workflowName), WORKFLOW_LEVEL, 'workflowName', nameIssue);
  const runTimeoutSeconds = options.runTimeoutSeconds ?? (definition instanceof Definition ? definition.runTimeoutSeconds : undefined);
  const settings = workflowSettings(workflowName, { ...options, runTimeoutSeconds });
  const start = definition?.startState;
  if (start === undefined) throw new UnumDefinitionError(workflowName, WORKFLOW_LEVEL, 'definition', 'the workflow is empty: it has no states');
  const graph = buildGraph(workflowName, start);
  const warnings = validateAll(workflowName, graph);
  const asyncDefaults = { retryAttempts: options.retryAttempts, maxEventAgeSeconds: options.maxEventAgeSeconds };
  const stateNames = definition instanceof Definition ? definition.stateNames : undefined;
  return new Emitter(workflowName, graph, settings, asyncDefaults, stateNames).emit(warnings);
}

function validateAll(workflow: string, graph: ReturnType<typeof buildGraph>): string[] {
  const warnings = validateStates(workflow, graph);
  rejectLoopsWithoutExit(workflow, graph);
  return warnings;
}

function workflowSettings(workflow: string, options: CompileOptions): WorkflowSettings {
  const settings = {
    inlineLimitBytes: options.inlineLimitBytes ?? 32768,
    invokeConcurrency: options.invokeConcurrency ?? 64,
    checkpointTtlSeconds: options.checkpointTtlSeconds ?? 7 * DAY,
    runRetentionSeconds: options.runRetentionSeconds ?? 30 * DAY,
  };
  for (const [field, value] of Object.entries(settings)) {
    const problem = atLeast(value, 1, true);
    if (problem) throw new UnumDefinitionError(workflow, WORKFLOW_LEVEL, `options.${field}`, problem);
  }
  const launchWidth = integerIn(options.mapLaunchWidth, { min: 2, max: ENVELOPE_BOUNDS.fanOutSize });
  if (launchWidth) throw new UnumDefinitionError(workflow, WORKFLOW_LEVEL, 'options.mapLaunchWidth', launchWidth);
  const timeout = integerIn(options.runTimeoutSeconds, { min: 1, max: MAX_WAIT_SECONDS });
  if (timeout) throw new UnumDefinitionError(workflow, WORKFLOW_LEVEL, 'options.runTimeoutSeconds', timeout);
  // Only when set: IR of workflows without them stays byte-identical.
  return {
    ...settings,
    ...(options.history ? { history: true } : {}),
    ...(options.mapLaunchWidth === undefined ? {} : { launchWidth: options.mapLaunchWidth }),
    ...(options.runTimeoutSeconds === undefined ? {} : { runTimeoutSeconds: options.runTimeoutSeconds }),
  };
}
