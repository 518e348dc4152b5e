import type { Json } from '../../runtime/contract/ir';
import { MapState } from '../definition';
import type { BuildContext, StateReader } from './context';
import { checkKeys } from './fields';
import { ioProps, jsonataFields } from './io';
import { addCatches, addRetries } from './retry';
import { checkTemplate } from './templates';
import type { AslScope, AslState } from './types';

type Processor = AslScope & { readonly ProcessorConfig?: { readonly [k: string]: Json } };

/**
 * Map: the item processor (`ItemProcessor`, or the older `Iterator`) once per
 * element of `ItemsPath`; each element's input is built by `ItemSelector`
 * (or the older `Parameters`, same meaning); a JSONata Map's `Items`,
 * `ItemSelector` and `Output` are JSONata. Inline mode only. The result is
 * the array of item results, processed by its join (ResultSelector,
 * ResultPath, OutputPath, or Output).
 */
export const mapReader: StateReader = {
  create(ctx, name, state) {
    const processorField = state.ItemProcessor !== undefined ? 'ItemProcessor' : 'Iterator';
    const processor = state[processorField] as unknown as Processor;
    checkKeys(ctx.report, name, processorField, processor, ['StartAt', 'States', 'Comment', ...(processorField === 'ItemProcessor' ? ['ProcessorConfig'] : [])]);
    const config = processor.ProcessorConfig ?? {};
    for (const [key, value] of Object.entries(config)) {
      if (key !== 'Mode' || value !== 'INLINE') {
        ctx.report.fail(name, `ItemProcessor.ProcessorConfig.${key}`, `${JSON.stringify(value)} is not supported: only Mode INLINE (a distributed Map's child executions, item readers and result writers have no unum translation)`);
      }
    }
    if (typeof state.MaxConcurrency === 'string') ctx.report.fail(name, 'MaxConcurrency', 'the concurrency bound is fixed at deploy time: give a number, not an expression');
    const maxConcurrency = state.MaxConcurrency !== undefined ? { maxConcurrency: state.MaxConcurrency as number } : {};
    const map = state.QueryLanguage === 'JSONata'
      ? MapState.jsonata(ctx.names.node(name), { ...jsonataFields(state, { Items: 'items', ItemSelector: 'itemSelector', Output: 'outputs' }), ...maxConcurrency })
      : jsonPathMap(ctx, name, state, maxConcurrency);
    addRetries(ctx, name, state.Retry, map);
    return map.itemProcessor(ctx.buildScope(processor));
  },

  /** Catch rules need their targets, which exist once the whole scope is created. */
  wire(ctx, name, state, created, lookup) {
    addCatches(ctx, name, state.Catch, created.entry as MapState, lookup);
  },
};

function jsonPathMap(ctx: BuildContext, name: string, state: AslState, maxConcurrency: { maxConcurrency?: number }): MapState {
  const selectorField = state.ItemSelector !== undefined ? 'ItemSelector' : 'Parameters';
  const itemSelector = state[selectorField];
  if (itemSelector !== undefined) checkTemplate(ctx.report, name, selectorField, itemSelector, 'item');
  return new MapState(ctx.names.node(name), {
    ...ioProps(ctx.report, name, state, ['InputPath', 'ResultSelector', 'ResultPath', 'OutputPath']),
    ...(state.ItemsPath !== undefined ? { itemsPath: state.ItemsPath as string } : {}),
    ...(itemSelector !== undefined ? { itemSelector } : {}),
    ...maxConcurrency,
  });
}
