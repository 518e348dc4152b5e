import * as path from 'path';
import { Definition, Parallel, Task } from '../../lib/definition';
import type * as h from './handlers';

const entry = path.join(__dirname, 'handlers.ts');

/**
 * normalize -> parallel [word stats, sentiment, keywords] -> report
 * (chain + parallel + fan-in). New states per call: a state belongs to one workflow.
 */
export function textPipeline(): Definition<h.Document, h.Report> {
  const normalize = new Task<h.Document, h.Normalized>('Normalize', { entry, handler: 'normalize' });
  const analyze = new Parallel<h.Normalized, [h.WordStats, h.Sentiment, h.Keywords]>('Analyze').branch(
    new Task<h.Normalized, h.WordStats>('WordStats', { entry, handler: 'wordStats' }),
    new Task<h.Normalized, h.Sentiment>('Sentiment', { entry, handler: 'sentiment' }),
    new Task<h.Normalized, h.Keywords>('Keywords', { entry, handler: 'keywords' }),
  );
  const report = new Task<[h.WordStats, h.Sentiment, h.Keywords], h.Report>('Report', { entry, handler: 'report' });
  return Definition.from(normalize.next(analyze).next(report));
}
