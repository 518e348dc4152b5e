/**
 * Map items as the item processor receives them. The origin computes them to
 * send them inline; a branch whose item went by reference (`mapItem` input)
 * rebuilds the same item from the origin's checkpoint.
 */
import { contextObject } from '../language/context';
import { runtimeError } from '../contract/errors';
import type { Json, MapItems } from '../contract/ir';
import { processInput } from '../language/io';
import { evalPath } from '../language/paths';
import { applyTemplate } from '../language/template';
import type { Exec } from '../ports/execution';

/** The Map's effective input (after InputPath), from the state input (the origin's value). */
export function mapInput(spec: MapItems, value: Json): Json {
  return spec.inputPath === undefined ? value : processInput({ inputPath: spec.inputPath }, value, null);
}

/** The array a Map fans out over, from its effective input. */
export function mapItemList(x: Exec, spec: MapItems, value: Json): Json[] {
  const items = evalPath(value, spec.itemsPath ?? '$', 'reference');
  if (!items.found || !Array.isArray(items.value)) throw runtimeError(`node ${x.rt.ir.node}: ItemsPath ${spec.itemsPath} is not an array`);
  return items.value;
}

/** Map item `index` as the item processor receives it, from the effective input; `state` is the Map state's name (`$$.State.Name`). */
export function mapItem(x: Exec, spec: MapItems, value: Json, list: readonly Json[], index: number, state: string): Json {
  if (spec.itemSelector === undefined) return list[index];
  return applyTemplate(spec.itemSelector, value, contextObject(x, { State: { Name: state }, Map: { Item: { Value: list[index], Index: index } } }));
}
