// The examples of the README (DSL section), type-checked by test/types/types.test.ts and
// compiled by test/compiler/docs-examples.test.ts, so the documentation stays true.
import * as path from 'node:path';
import { Choice, Condition, Definition, Fail, Fold, Map, Parallel, Pass, Task, Succeed, type FoldHandler, type Handler, type InputOf, type OutputOf } from '../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');

const fetchTask = (): Task<{ url: string }, { key: string; bytes: number }> =>
  new Task<{ url: string }, { key: string; bytes: number }>('Fetch', {
    entry,
    handler: 'fetch',
    memorySize: 512,
    timeoutSeconds: 60,
    environment: { BUCKET: 'photos' },
    retryAttempts: 1,
    maxEventAgeSeconds: 3600,
  });

export const resizeHandler: Handler<{ key: string }, { thumb: string }> = async ({ key }) => ({ thumb: `${key}.thumb.jpg` });
export const concatHandler: FoldHandler<string[], string> = (acc, chunkKey) => [...acc, chunkKey];

export const examples: Record<string, () => Definition> = {
  chain: () => {
    const resize = new Task<InputOf<typeof resizeHandler>, OutputOf<typeof resizeHandler>>('Resize', { entry, handler: 'resize' });
    const store = new Task<{ thumb: string }, void>('Store', { entry, handler: 'store' });
    return Definition.from(fetchTask().next(resize).next(store));
  },
  parallel: () => {
    const analyse = new Parallel<{ key: string }, [{ faces: number }, { labels: string[] }]>('Analyse')
      .branch(new Task('Faces', { entry, handler: 'faces' }))
      .branch(new Task('Labels', { entry, handler: 'labels' }).next(new Task('Translate', { entry, handler: 'translate' })));
    const report = new Task<[{ faces: number }, { labels: string[] }], string>('Report', { entry, handler: 'report' });
    return Definition.from(fetchTask().next(analyse).next(report));
  },
  map: () => {
    const perPhoto = new Map<{ keys: string[] }, { thumb: string }[]>('PerPhoto', {
      itemsPath: '$.keys',
      maxConcurrency: 50,
      itemSelector: { 'key.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index' },
    }).itemProcessor(new Task<{ key: string; index: number }, { thumb: string }>('Thumb', { entry, handler: 'thumb' }));
    return Definition.from(new Task('List', { entry, handler: 'list' }).next(perPhoto).next(new Task('Index', { entry, handler: 'index' })));
  },
  nestedMap: () => {
    const perPage = new Map('PerPage', { itemsPath: '$.pages' }).itemProcessor(new Task('Ocr', { entry, handler: 'ocr' }));
    const perDocument = new Map('PerDocument', { itemsPath: '$.documents' })
      .itemProcessor(new Task('Split', { entry, handler: 'split' }).next(perPage).next(new Task('Assemble', { entry, handler: 'assemble' })));
    return Definition.from(new Task('Scan', { entry, handler: 'scan' }).next(perDocument).next(new Task('Archive', { entry, handler: 'archive' })));
  },
  fold: () => {
    const encode = new Map<{ chunks: string[] }, string[]>('Encode', { itemsPath: '$.chunks' })
      .itemProcessor(new Task<string, string>('EncodeChunk', { entry, handler: 'encodeChunk' }));
    const concat = new Fold<string, string[]>('Concat', { entry, handler: 'concat', initial: [] });
    return Definition.from(new Task('SplitVideo', { entry, handler: 'split' }).next(encode).next(concat).next(new Task('Publish', { entry, handler: 'publish' })));
  },
  choice: () => {
    const store = new Task<{ thumb: string }, void>('Store', { entry, handler: 'store' });
    const route = new Choice<{ key: string; bytes: number }>('Route')
      .when(Condition.numberGreaterThan('$.bytes', 10_000_000), new Task('Reject', { entry, handler: 'reject' }))
      .when(Condition.and(Condition.stringMatches('$.key', '*.png'), Condition.not(Condition.isNull('$.bytes'))), new Task('Png', { entry, handler: 'png' }))
      .otherwise(new Task('Other', { entry, handler: 'other' }));
    return Definition.from(fetchTask().next(route.afterwards()).next(store));
  },
  loop: () => {
    const poll = new Task<{ jobId: string }, { jobId: string; done: boolean }>('Poll', { entry, handler: 'poll' });
    const again = new Choice('Again').when(Condition.booleanEquals('$.done', false), poll);
    return Definition.from(
      new Task('Submit', { entry, handler: 'submit' })
        .next(poll)
        .next(again.afterwards({ includeOtherwise: true }))
        .next(new Task('Collect', { entry, handler: 'collect' })),
    );
  },
  retryCatch: () => {
    const charge = new Task('Charge', { entry, handler: 'charge' })
      .addRetry({ errors: ['Throttled'], maxAttempts: 5, intervalSeconds: 2, backoffRate: 2, jitter: 'FULL', maxDelaySeconds: 60 })
      .addRetry({ maxAttempts: 2 })
      .addCatch(new Task('Refund', { entry, handler: 'refund' }), { errors: ['CardDeclined'], resultPath: '$.error' })
      .addCatch(new Fail('PaymentFailed', { error: 'PaymentFailed', cause: 'charge failed' }));
    return Definition.from(charge.next(new Task('Ship', { entry, handler: 'ship' })));
  },
  passSucceedFail: () => {
    const seed = new Pass('Seed', { result: { keys: ['a.jpg', 'b.jpg'] } });
    const shape = new Pass('Shape', { inputPath: '$.order', parameters: { 'id.$': '$.id', source: 'web' } });
    const done = new Succeed('Done');
    const failed = new Fail('Failed', { error: 'Invalid', cause: 'no items' });
    return Definition.from(seed.next(shape).next(new Choice('Valid').when(Condition.isPresent('$.id'), done).otherwise(failed)));
  },
};
