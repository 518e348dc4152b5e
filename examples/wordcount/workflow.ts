import * as path from 'path';
import { Definition, Map, Task } from '../../lib/definition';
import type * as h from './handlers';

const entry = path.join(__dirname, 'handlers.ts');

/**
 * MapReduce word count: split -> map[count chunk] -> shuffle -> map[reduce partition] -> merge
 * (map + fan-in + map + fan-in).
 */
export function wordCount(): Definition<h.WordCountInput, h.WordCount> {
  const split = new Task<h.WordCountInput, h.Split>('Split', { entry, handler: 'split' });
  const mapChunks = new Map<h.Split, h.MapOutput[]>('MapChunks', { itemsPath: '$.chunks', maxConcurrency: 16 }).itemProcessor(
    new Task<h.Chunk, h.MapOutput>('CountChunk', { entry, handler: 'mapChunk' }),
  );
  const shuffle = new Task<h.MapOutput[], h.Shuffled>('Shuffle', { entry, handler: 'shuffle' });
  const reduce = new Map<h.Shuffled, h.ReduceOutput[]>('ReducePartitions', { itemsPath: '$.partitions' }).itemProcessor(
    new Task<h.Partition, h.ReduceOutput>('SumPartition', { entry, handler: 'reducePartition' }),
  );
  const merge = new Task<h.ReduceOutput[], h.WordCount>('Merge', { entry, handler: 'merge' });
  return Definition.from(split.next(mapChunks).next(shuffle).next(reduce).next(merge));
}
