/**
 * Map items as the item processor receives them. The origin computes them to
 * send them inline; a branch whose item went by reference (`mapItem` input)
 * rebuilds the same item from the origin's checkpoint.
 */
import { foldedStateContext, stateOf } from '../language/context';
import { runtimeError, StatesError } from '../contract/errors';
import type { Json, MapItems } from '../contract/ir';
import { processInput } from '../language/io';
import { evaluateJsonataTemplate } from '../language/jsonata';
import { evalPath } from '../language/paths';
import { applyTemplate } from '../language/template';
import type { Exec } from '../ports/execution';

/** The Map's effective input (after InputPath), from the state input (the origin's value). */
export function mapInput(spec: MapItems, value: Json): Json {
  return spec.inputPath === undefined ? value : processInput({ inputPath: spec.inputPath }, value, null);
}

/** The array a Map fans out over, from its effective input (a JSONata Map's: its `Items`). */
export async function mapItemList(x: Exec, spec: MapItems, value: Json): Promise<Json[]> {
  if (spec.queryLanguage === 'JSONata') {
    const state = spec.state ?? stateOf(x);
    const items = spec.items === undefined ? value : await evaluateJsonataTemplate(spec.items, { input: value, context: foldedStateContext(x, state) }, `Map ${state} Items`);
    if (!Array.isArray(items)) throw new StatesError('States.QueryEvaluationError', `Map ${state} Items: ${JSON.stringify(items).slice(0, 100)} is not an array`);
    return items;
  }
  const items = evalPath(value, spec.itemsPath ?? '$', 'reference');
  if (!items.found || !Array.isArray(items.value)) throw runtimeError(`node ${x.rt.ir.node}: ItemsPath ${spec.itemsPath} is not an array`);
  return items.value;
}

/** Map item `index` as the item processor receives it, from the effective input; `state` is the Map state's name (`$$.State.Name`). */
export async function mapItem(x: Exec, spec: MapItems, value: Json, list: readonly Json[], index: number, state: string): Promise<Json> {
  if (spec.itemSelector === undefined) return list[index];
  const context = foldedStateContext(x, state, { Map: { Item: { Value: list[index], Index: index } } });
  if (spec.queryLanguage === 'JSONata') return evaluateJsonataTemplate(spec.itemSelector, { input: value, context }, `Map ${state} ItemSelector`);
  return applyTemplate(spec.itemSelector, value, context);
}
