// The examples of docs/writing-workflows.md, one function per example. Each returns its
// definition, so test/compiler/docs-examples.test.ts compiles every one of them.
// #region imports
import * as path from 'node:path';
import { Choice, Condition, Definition, Fail, Fold, Map, Parallel, Pass, Succeed, Task } from 'unum-cdk';

const entry = path.join(__dirname, 'handlers.ts'); // the module with the handler exports
// #endregion

/** The first example's task, which later examples continue from. */
function fetchTask(): Task<{ url: string }, { key: string; bytes: number }> {
  // #region task
  const fetch = new Task<{ url: string }, { key: string; bytes: number }>('Fetch', {
    entry,
    handler: 'fetch',          // export name, default 'handler'
    memorySize: 512,           // MB, 128-10240, default 256
    timeoutSeconds: 60,        // handler timeout, 1-890, default 30 (the function gets 10 s more)
    environment: { BUCKET: 'photos' },
    retryAttempts: 1,          // Lambda async retries, 0-2, default 2
    maxEventAgeSeconds: 3600,  // 60-21600, default 21600
    effects: { tables: [] },   // DynamoDB tables its effects write, granted to this function only
  });
  // #endregion
  return fetch;
}

export function chain(): Definition {
  const fetch = fetchTask();
  // #region chain
  const resize = new Task<{ key: string }, { thumb: string }>('Resize', { entry, handler: 'resize' });
  const store = new Task<{ thumb: string }, void>('Store', { entry, handler: 'store' });

  const definition = Definition.from(fetch.next(resize).next(store));
  // #endregion
  return definition;
}

export function typeMismatch(): void {
  const fetch = fetchTask();
  // #region type-mismatch
  // @ts-expect-error Fetch expects { url: string }, and Count outputs void
  new Task<{ bytes: number }, void>('Count', { entry }).next(fetch);
  // #endregion
}

export function parallel(): Definition {
  const fetch = fetchTask();
  // #region parallel
  const analyse = new Parallel<{ key: string }, [{ faces: number }, { labels: string[] }]>('Analyse')
    .branch(new Task('Faces', { entry, handler: 'faces' }))
    .branch(new Task('Labels', { entry, handler: 'labels' }).next(new Task('Translate', { entry, handler: 'translate' })));

  const report = new Task<[{ faces: number }, { labels: string[] }], string>('Report', { entry, handler: 'report' });
  const definition = Definition.from(fetch.next(analyse).next(report));
  // #endregion
  return definition;
}

export function map(): Definition {
  // #region map
  const perPhoto = new Map<{ keys: string[] }, { thumb: string }[]>('PerPhoto', {
    itemsPath: '$.keys',
    maxConcurrency: 50,        // at most 50 items run at once; 0 (default) = all at once
    itemSelector: { 'key.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index' },
  }).itemProcessor(new Task<{ key: string; index: number }, { thumb: string }>('Thumb', { entry, handler: 'thumb' }));

  const definition = Definition.from(new Task('List', { entry, handler: 'list' }).next(perPhoto).next(new Task('Index', { entry, handler: 'index' })));
  // #endregion
  return definition;
}

export function nestedMap(): Definition {
  // #region nested-map
  const perPage = new Map('PerPage', { itemsPath: '$.pages' }).itemProcessor(new Task('Ocr', { entry, handler: 'ocr' }));
  const perDocument = new Map('PerDocument', { itemsPath: '$.documents' })
    .itemProcessor(new Task('Split', { entry, handler: 'split' }).next(perPage).next(new Task('Assemble', { entry, handler: 'assemble' })));
  const definition = Definition.from(new Task('Scan', { entry, handler: 'scan' }).next(perDocument).next(new Task('Archive', { entry, handler: 'archive' })));
  // #endregion
  return definition;
}

export function fold(): Definition {
  // #region fold
  const encode = new Map<{ chunks: string[] }, string[]>('Encode', { itemsPath: '$.chunks' })
    .itemProcessor(new Task<string, string>('EncodeChunk', { entry, handler: 'encodeChunk' }));
  const concat = new Fold<string, string[]>('Concat', { entry, handler: 'concat', initial: [] });
  const definition = Definition.from(new Task('SplitVideo', { entry, handler: 'split' }).next(encode).next(concat).next(new Task('Publish', { entry, handler: 'publish' })));
  // #endregion
  return definition;
}

export function choice(): Definition {
  const fetch = fetchTask();
  const store = new Task<{ thumb: string }, void>('Store', { entry, handler: 'store' });
  // #region choice
  const route = new Choice<{ key: string; bytes: number }>('Route')
    .when(Condition.numberGreaterThan('$.bytes', 10_000_000), new Task('Reject', { entry, handler: 'reject' }))
    .when(Condition.and(Condition.stringMatches('$.key', '*.png'), Condition.not(Condition.isNull('$.bytes'))), new Task('Png', { entry, handler: 'png' }))
    .otherwise(new Task('Other', { entry, handler: 'other' }));

  const definition = Definition.from(fetch.next(route.afterwards()).next(store)); // every open arm continues with Store
  // #endregion
  return definition;
}

export function loop(): Definition {
  // #region loop
  const poll = new Task<{ jobId: string }, { jobId: string; done: boolean }>('Poll', { entry, handler: 'poll' });
  const again = new Choice('Again').when(Condition.booleanEquals('$.done', false), poll);

  const definition = Definition.from(
    new Task('Submit', { entry, handler: 'submit' })
      .next(poll)
      .next(again.afterwards({ includeOtherwise: true })) // leave the loop when done
      .next(new Task('Collect', { entry, handler: 'collect' })),
  );
  // #endregion
  return definition;
}

export function retryCatch(): Definition {
  // #region retry-catch
  const charge = new Task('Charge', { entry, handler: 'charge' })
    .addRetry({ errors: ['Throttled'], maxAttempts: 5, intervalSeconds: 2, backoffRate: 2, jitter: 'FULL', maxDelaySeconds: 60 })
    .addRetry({ maxAttempts: 2 })                              // errors default ['States.ALL'], last rule only
    .addCatch(new Task('Refund', { entry, handler: 'refund' }), { errors: ['CardDeclined'], resultPath: '$.error' })
    .addCatch(new Fail('PaymentFailed', { error: 'PaymentFailed', cause: 'charge failed' }));

  const definition = Definition.from(charge.next(new Task('Ship', { entry, handler: 'ship' })));
  // #endregion
  return definition;
}

export function mapRetryCatch(): Definition {
  // #region map-retry-catch
  const chargeAll = new Map('ChargeAll', { itemsPath: '$.orders' })
    .itemProcessor(new Task('Charge', { entry, handler: 'charge' }))
    .addRetry({ errors: ['GatewayBusy'], maxAttempts: 2, intervalSeconds: 2 })
    .addCatch(new Task('Refund', { entry, handler: 'refund' }), { resultPath: '$.error' });
  // #endregion
  return Definition.from(chargeAll);
}

export function passSucceedFail(): Definition {
  // #region pass-succeed-fail
  const seed = new Pass('Seed', { result: { keys: ['a.jpg', 'b.jpg'] } });    // fixed output, no user code
  const shape = new Pass('Shape', { inputPath: '$.order', parameters: { 'id.$': '$.id', source: 'web' } });
  const done = new Succeed('Done');                                           // ends the run (or the branch)
  const failed = new Fail('Failed', { error: 'Invalid', cause: 'no items' }); // fails the run
  const declined = new Fail('Declined', { errorPath: '$.code', causePath: "States.Format('declined: {}', $.reason)" }); // error and cause from the input

  const definition = Definition.from(
    seed.next(shape).next(new Choice('Valid').when(Condition.isPresent('$.id'), done).when(Condition.isPresent('$.code'), declined).otherwise(failed)),
  );
  // #endregion
  return definition;
}

export function resultSelector(): Definition {
  // #region result-selector
  const both = new Parallel<{ key: string }, [{ faces: number }, { labels: string[] }], { faces: number; labels: string[] }>('Both', {
    resultSelector: { 'faces.$': '$[0].faces', 'labels.$': '$[1].labels' },
  })
    .branch(new Task('Faces', { entry, handler: 'faces' }))
    .branch(new Task('Labels', { entry, handler: 'labels' }));
  // #endregion
  return Definition.from(both.next(new Task<{ faces: number; labels: string[] }, void>('Save', { entry, handler: 'save' })));
}
