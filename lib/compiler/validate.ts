import { ENVELOPE_BOUNDS, type Condition as ConditionIr, type Json } from '../../runtime/contract/ir';
import type { AnyState, Choice, FailProps, Fold, MapState, Parallel, State } from '../definition';
import { IO_FIELDS, type IoProps } from '../definition/io';
import { evalPath } from '../../runtime/language/paths';
import { atLeast, jsonProblem, type Problem } from './checks';
import { describe, UnumDefinitionError } from './errors';
import type { Graph } from './graph';
import { pathProblem, templateProblem, type PathKind, type TemplateContext } from './jsonpath';
import { callbackProblems, isCallback } from './validate-callback';
import { errorRuleProblems, functionProblems } from './validate-function';
import { waitProblems } from './validate-wait';
import { jsonataFailProblems, jsonataProblems } from './validate-jsonata';

/**
 * Checks every reachable state's own settings, in definition order, and throws
 * the first problem found. Returns the warnings (non-fatal findings).
 */
export function validateStates(workflow: string, graph: Graph): string[] {
  const warnings: string[] = [];
  for (const state of graph.order) {
    const problem = state.misuses[0] ?? jsonataProblems(state)[0] ?? stateProblems(state, graph)[0];
    if (problem) throw new UnumDefinitionError(workflow, state.id, problem.field, problem.message);
    if (state.kind === 'choice' && !state.hasOtherwise) {
      warnings.push(describe(workflow, state.id, 'otherwise', 'the Choice has no otherwise: if no condition matches, the run fails with States.NoChoiceMatched'));
    }
  }
  return warnings;
}

function stateProblems(state: AnyState, graph: Graph): Problem[] {
  switch (state.kind) {
    case 'task':
      return [...functionProblems(state), ...ioProblems(state.props, isCallback(state) ? 'task' : 'state'), ...callbackProblems(state), ...jsonField('outputExample', state.props.outputExample)];
    case 'fold':
      return [...functionProblems(state), ...jsonField('initial', state.props.initial), ...foldPlacement(state, graph)];
    case 'pass':
      return [...ioProblems(state.props), ...jsonField('result', state.props.result)];
    case 'wait':
      return waitProblems(state);
    case 'parallel':
      return [...nestingProblems(state, graph), ...parallelProblems(state)];
    case 'map':
      return [...nestingProblems(state, graph), ...mapProblems(state, graph)];
    case 'choice':
      return choiceProblems(state);
    case 'fail':
      return failProblems(state.props);
    case 'succeed':
      return [];
  }
}

function failProblems(props: FailProps): Problem[] {
  if (props.queryLanguage === 'JSONata') return jsonataFailProblems(props);
  const out: Problem[] = [];
  if (props.error !== undefined && (typeof props.error !== 'string' || props.error === '')) out.push({ field: 'error', message: 'the error name must be a non-empty string' });
  if (props.cause !== undefined && typeof props.cause !== 'string') out.push({ field: 'cause', message: 'the cause must be a string' });
  for (const [field, fixed] of [['errorPath', 'error'], ['causePath', 'cause']] as const) {
    const expression = props[field];
    if (expression === undefined) continue;
    if (props[fixed] !== undefined) out.push({ field, message: `a Fail state takes a fixed ${fixed} or a path to it, not both` });
    const problem = templateProblem({ [`${field}.$`]: expression }, 'state');
    if (problem) out.push({ field, message: problem.message });
  }
  return out;
}

function jsonField(field: string, value: unknown): Problem[] {
  const message = value === undefined ? undefined : jsonProblem(value);
  return message ? [{ field, message }] : [];
}

/** What each io path field takes (InputPath and OutputPath may select several values; ResultPath names one place). */
const PATH_KINDS: Readonly<Record<'inputPath' | 'resultPath' | 'outputPath', PathKind>> = { inputPath: 'path', resultPath: 'reference', outputPath: 'path' };

function ioProblems(io: IoProps, parameters: TemplateContext = 'state'): Problem[] {
  const out: Problem[] = [];
  for (const field of IO_FIELDS) {
    const message = field === 'parameters' || field === 'resultSelector' ? templateMessage(io[field], field === 'parameters' ? parameters : 'state') : pathProblem(io[field], PATH_KINDS[field], true);
    if (message) out.push({ field, message });
  }
  return out;
}

/** A template's problem as a message naming the `.$` key at fault. */
function templateMessage(template: Json | undefined, where: TemplateContext): string | undefined {
  const problem = templateProblem(template, where);
  return problem && (problem.key === undefined ? problem.message : `'${problem.key}': ${problem.message}`);
}

/**
 * A Parallel/Map's io fields. Its join applies the output processing to the
 * branch outputs; a Fold that follows folds the branch outputs themselves
 * (its steps have no state input to merge into), so there it is refused.
 */
function containerIoProblems(state: Parallel | MapState): Problem[] {
  const out = [...ioProblems(state.props), ...errorRuleProblems(state)];
  if ((state.nextState as AnyState | undefined)?.kind !== 'fold') return out;
  const kind = state.kind === 'map' ? 'Map' : 'Parallel';
  // The Fold is the join: its steps carry no state input to retry from or merge a caught error into.
  if (state.retries.length > 0) out.push({ field: 'retry[0]', message: `a ${kind} followed by a Fold ('${state.nextState?.id}') cannot have Retry rules; put them on the states inside it` });
  if (state.catches.length > 0) out.push({ field: 'catch[0]', message: `a ${kind} followed by a Fold ('${state.nextState?.id}') cannot have Catch rules; put them on the states inside it` });
  for (const field of ['resultSelector', 'resultPath', 'outputPath'] as const) {
    const value = state.props[field];
    if (value === undefined || (field === 'resultPath' && value === '$')) continue;
    out.push({ field, message: `a ${kind} followed by a Fold ('${state.nextState?.id}') cannot have ${field}: the Fold receives the branch outputs themselves; process the Fold's result instead` });
  }
  return out;
}

/** Each level of nested fan-out adds a frame to every envelope inside it; the runtime accepts ENVELOPE_BOUNDS.depth. */
function nestingProblems(state: Parallel | MapState, graph: Graph): Problem[] {
  let depth = 1;
  for (let c = graph.scopeOf.get(state)?.container; c; c = graph.scopeOf.get(c)?.container) depth++;
  if (depth <= ENVELOPE_BOUNDS.depth) return [];
  return [{ field: 'id', message: `the ${state.kind === 'map' ? 'Map' : 'Parallel'} is nested ${depth} levels deep in Maps and Parallels; at most ${ENVELOPE_BOUNDS.depth} are supported` }];
}

function parallelProblems(state: Parallel): Problem[] {
  if (state.branches.length === 0) return [{ field: 'branches', message: 'the fan-in size cannot be determined: the Parallel has no branches' }];
  const empty = state.branches.findIndex((b) => b === undefined);
  if (empty >= 0) return [{ field: `branches[${empty}]`, message: 'the branch is an empty chain' }];
  return containerIoProblems(state);
}

function mapProblems(state: MapState, graph: Graph): Problem[] {
  const { itemsPath, maxConcurrency, itemSelector } = state.props;
  if (!state.hasProcessor) return [{ field: 'itemProcessor', message: 'the fan-in size cannot be determined: the Map has no item processor' }];
  if (state.processorState === undefined) return [{ field: 'itemProcessor', message: 'the item processor is an empty chain' }];
  const out = containerIoProblems(state);
  const pathMessage = pathProblem(itemsPath, 'reference', false);
  if (pathMessage) out.push({ field: 'itemsPath', message: pathMessage });
  const concurrency = atLeast(maxConcurrency, 0, true);
  if (concurrency) out.push({ field: 'maxConcurrency', message: concurrency });
  // A JSONata Map's items and item selector are checked with its language (validate-jsonata.ts).
  if (state.props.queryLanguage === 'JSONata') return out;
  const selector = templateMessage(itemSelector, 'item');
  if (selector) out.push({ field: 'itemSelector', message: selector });
  if (out.length === 0) out.push(...knownItemsProblems(state, graph));
  return out;
}

/**
 * Where the Map's input is known at compile time (a Pass with a literal
 * result, or a Task with an `outputExample`), checks that `itemsPath`
 * selects an array in it.
 */
function knownItemsProblems(state: MapState, graph: Graph): Problem[] {
  const itemsPath = state.props.itemsPath ?? '$';
  for (const source of knownInputs(state, graph)) {
    const { inputPath } = state.props;
    const value = inputPath === null ? {} : valueAt(source.value, inputPath ?? '$');
    const items = value === undefined ? undefined : valueAt(value, itemsPath);
    if (!Array.isArray(items)) {
      const found = items === undefined ? 'nothing' : items === null ? 'null' : `a ${typeof items}`;
      return [{ field: 'itemsPath', message: `'${itemsPath}' selects ${found}, not an array, in the output of '${source.from}'` }];
    }
  }
  return [];
}

/** The value at an (already checked) path, or undefined if there is none. */
function valueAt(doc: Json, path: string): Json | undefined {
  return evalPath(doc, path).value;
}

/** Predecessors whose output is known, looking through Choice states. */
function knownInputs(state: State, graph: Graph): { from: string; value: Json }[] {
  const out: { from: string; value: Json }[] = [];
  const seen = new Set<State>([state]);
  const queue: State[] = [state];
  for (let i = 0; i < queue.length; i++) {
    const target = queue[i];
    for (const raw of target.incoming) {
      const pred = raw as AnyState;
      if (seen.has(pred) || !graph.scopeOf.has(pred)) continue;
      seen.add(pred);
      if (pred.kind === 'choice') queue.push(pred);
      else if (pred.kind === 'pass' && pred.nextState === target && pred.props.result !== undefined && plainResult(pred.props)) out.push({ from: pred.id, value: pred.props.result });
      else if (pred.kind === 'task' && pred.nextState === target && pred.props.outputExample !== undefined && plainResult(pred.props)) out.push({ from: pred.id, value: pred.props.outputExample });
    }
  }
  return out;
}

/** The output is the result itself (no selector, merge or output path in between). */
function plainResult(io: IoProps): boolean {
  return io.resultSelector === undefined && (io.resultPath ?? '$') === '$' && (io.outputPath ?? '$') === '$';
}

function foldPlacement(state: Fold, graph: Graph): Problem[] {
  const preds = state.incoming.filter((s) => graph.scopeOf.has(s)) as AnyState[];
  const ok = preds.length === 1 && (preds[0].kind === 'map' || preds[0].kind === 'parallel') && preds[0].nextState === state;
  return ok ? [] : [{ field: 'next', message: 'a Fold must directly follow a Map or Parallel (it folds the fan-in items), and only that state may lead to it' }];
}

function choiceProblems(state: Choice): Problem[] {
  if (state.arms.length === 0) return [{ field: 'when', message: 'the Choice has no when rules' }];
  const out: Problem[] = [];
  state.arms.forEach((arm, i) => {
    if (arm.next === undefined) out.push({ field: `when[${i}]`, message: 'the target is an empty chain' });
    // A whole JSONata rule is checked with the state's query language (validate-jsonata.ts).
    const message = arm.condition.ir.kind === 'jsonata' ? undefined : conditionProblem(arm.condition.ir);
    if (message) out.push({ field: `when[${i}]`, message });
  });
  if (state.hasOtherwise && state.otherwiseState === undefined) out.push({ field: 'otherwise', message: 'the target is an empty chain' });
  return out;
}

function conditionProblem(root: ConditionIr): string | undefined {
  const stack: ConditionIr[] = [root];
  while (stack.length > 0) {
    const c = stack.pop() as ConditionIr;
    switch (c.kind) {
      case 'and':
        if (c.all.length === 0) return 'Condition.and() needs at least one condition';
        stack.push(...c.all);
        break;
      case 'or':
        if (c.any.length === 0) return 'Condition.or() needs at least one condition';
        stack.push(...c.any);
        break;
      case 'not':
        stack.push(c.arg);
        break;
      case 'jsonata':
        return 'Condition.jsonata() is a whole rule of a Choice.jsonata, not part of and/or/not: combine inside the expression (and, or, $not())';
      case 'comparePath':
        {
          const message = pathProblem(c.path, 'reference', false) ?? pathProblem(c.otherPath, 'reference', false);
          if (message) return message;
        }
        break;
      default: {
        const message = pathProblem(c.path, 'reference', false);
        if (message) return message;
        if (c.kind === 'compare' && typeof c.value !== (c.type === 'timestamp' ? 'string' : c.type)) return `the ${c.type} comparison has a ${typeof c.value} value`;
      }
    }
  }
  return undefined;
}
