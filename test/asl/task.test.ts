/** Task states: resources, function settings lookup, io fields, Retry, Catch, TimeoutSeconds, lambda:invoke. */
import { ENTRY, compileAsl, irOf, machine, task } from './helpers';

const one = (extra: Record<string, unknown> = {}) => machine({ T: task(extra as never) });

describe('Task resources', () => {
  test.each([
    ['a bare unum function name', 'Resize', 'Resize'],
    ['a Lambda ARN', 'arn:aws:lambda:us-west-1:746167823857:function:resize-fn', 'resize_fn'],
    ['a Lambda ARN with a qualifier (dropped)', 'arn:aws:lambda:us-east-1:123456789012:function:Resize:prod', 'Resize'],
    ['a ${...} placeholder', '${resizeArn}', 'resizeArn'],
  ])('%s', (_what, resource, exportName) => {
    expect(irOf(one({ Resource: resource }), 'T').handler).toEqual({ kind: 'user', export: exportName });
  });

  test('settings are looked up by state name first, then Resource as written, then the function it names, then defaultTask', () => {
    const doc = machine({ T: task({ Resource: 'arn:aws:lambda:us-east-1:123456789012:function:Fn', Next: 'U' }), U: task({ Resource: '${uArn}' }) });
    const props = (handler: string) => ({ entry: ENTRY, handler });
    const arn = 'arn:aws:lambda:us-east-1:123456789012:function:Fn';
    const handlerOf = (tasks: Record<string, { entry: string; handler: string }>) => compileAsl(doc, { tasks: { uArn: props('u'), ...tasks }, defaultTask: props('fallback') }).nodes.T.ir.handler;
    expect(handlerOf({ T: props('byState'), [arn]: props('byResource'), Fn: props('byName') })).toEqual({ kind: 'user', export: 'byState' });
    expect(handlerOf({ [arn]: props('byResource'), Fn: props('byName') })).toEqual({ kind: 'user', export: 'byResource' });
    expect(handlerOf({ Fn: props('byName') })).toEqual({ kind: 'user', export: 'byName' });
    expect(handlerOf({})).toEqual({ kind: 'user', export: 'fallback' });
  });

  test('the function settings (memory, environment, ...) come from tasks; TimeoutSeconds overrides their timeout', () => {
    const compiled = compileAsl(one({ TimeoutSeconds: 120 }), {
      tasks: { T: { entry: ENTRY, handler: 'h', memorySize: 1024, timeoutSeconds: 30, environment: { MODE: 'x' } } },
    });
    expect(compiled.nodes.T.fn).toMatchObject({ entry: ENTRY, exportName: 'h', memorySize: 1024, timeoutSeconds: 120, environment: { MODE: 'x' } });
    expect(compiled.nodes.T.ir.settings.timeoutSeconds).toBe(120);
  });

  test('Comment is accepted and ignored', () => {
    expect(irOf(one({ Comment: 'resizes the image' }), 'T').handler).toEqual({ kind: 'user', export: 'Fn' });
  });
});

describe('Task io fields', () => {
  test('InputPath, Parameters, ResultSelector, ResultPath and OutputPath carry over unchanged (null included)', () => {
    const io = {
      InputPath: '$.order',
      Parameters: { 'id.$': '$.id', 'greeting.$': "States.Format('order {}', $.id)", fixed: 1 },
      ResultSelector: { 'total.$': '$.sum' },
      ResultPath: '$.result',
      OutputPath: '$.result',
    };
    expect(irOf(one(io), 'T').io).toEqual({
      inputPath: '$.order',
      parameters: io.Parameters,
      resultSelector: io.ResultSelector,
      resultPath: '$.result',
      outputPath: '$.result',
    });
    expect(irOf(one({ InputPath: null, ResultPath: null, OutputPath: null }), 'T').io).toEqual({ inputPath: null, resultPath: null, outputPath: null });
  });
});

describe('Task Retry and Catch', () => {
  test('Retry rules map field by field, with the ASL defaults', () => {
    const retry = [
      { ErrorEquals: ['States.Timeout'], MaxAttempts: 0 },
      { ErrorEquals: ['ErrorA', 'ErrorB'], IntervalSeconds: 3, MaxAttempts: 2, BackoffRate: 1.5, MaxDelaySeconds: 4, JitterStrategy: 'FULL' },
      { ErrorEquals: ['States.ALL'] },
    ];
    expect(irOf(one({ Retry: retry }), 'T').retry).toEqual([
      { errors: ['States.Timeout'], maxAttempts: 0, intervalSeconds: 1, backoffRate: 2, jitter: 'NONE' },
      { errors: ['ErrorA', 'ErrorB'], maxAttempts: 2, intervalSeconds: 3, backoffRate: 1.5, maxDelaySeconds: 4, jitter: 'FULL' },
      { errors: ['States.ALL'], maxAttempts: 3, intervalSeconds: 1, backoffRate: 2, jitter: 'NONE' },
    ]);
  });

  test('Catch routes to its Next state with ResultPath', () => {
    const doc = machine({
      T: task({ Catch: [{ ErrorEquals: ['Boom'], Next: 'Recover', ResultPath: '$.error' }, { ErrorEquals: ['States.ALL'], Next: 'Give up' }] }),
      Recover: task({ Resource: 'Recover' }),
      'Give up': { Type: 'Fail', Error: 'Unrecoverable' },
    });
    const compiled = compileAsl(doc);
    // The Fail state is not a function: its catch target is the implicit node that enters it.
    expect(compiled.nodes.T.ir.catch).toEqual([
      { errors: ['Boom'], next: 'Recover', resultPath: '$.error' },
      { errors: ['States.ALL'], next: 'Give_up.Enter' },
    ]);
    expect(compiled.nodes['Give_up.Enter'].ir.instructions).toEqual([{ op: 'fail', state: 'Give up', error: 'Unrecoverable' }]);
  });
});

describe('arn:aws:states:::lambda:invoke', () => {
  const invoke = (extra: Record<string, unknown>) => one({ Resource: 'arn:aws:states:::lambda:invoke', ...extra });

  test('the function is Parameters.FunctionName; Payload.$ becomes the input path; the result is wrapped as the API response', () => {
    const ir = irOf(invoke({ Parameters: { FunctionName: 'arn:aws:lambda:us-east-1:123456789012:function:Resize:$LATEST', 'Payload.$': '$.image' }, OutputPath: '$.Payload' }), 'T');
    expect(ir.handler).toEqual({ kind: 'user', export: 'Resize' });
    expect(ir.io).toEqual({
      inputPath: '$.image',
      resultSelector: { ExecutedVersion: '$LATEST', 'Payload.$': '$', StatusCode: 200 },
      outputPath: '$.Payload',
    });
  });

  test('Payload.$ is composed with InputPath; a Payload template becomes Parameters', () => {
    expect(irOf(invoke({ InputPath: '$.a', Parameters: { FunctionName: '${fnArn}', 'Payload.$': '$.b' } }), 'T').io).toMatchObject({ inputPath: '$.a.b' });
    expect(irOf(invoke({ Parameters: { FunctionName: 'Fn', Payload: { 'x.$': '$.y' } } }), 'T').io).toMatchObject({ parameters: { 'x.$': '$.y' } });
  });

  test('a ResultSelector over the response reads the function result directly', () => {
    const ir = irOf(invoke({ Parameters: { FunctionName: 'Fn', 'Payload.$': '$' }, ResultSelector: { 'body.$': '$.Payload.body', 'code.$': '$.StatusCode', 'both.$': 'States.Array($.Payload.a, $.Payload[0])' } }), 'T');
    expect(ir.io).toEqual({ resultSelector: { 'body.$': '$.body', code: 200, 'both.$': 'States.Array($.a, $[0])' } });
  });
});

describe('arn:aws:states:::lambda:invoke.waitForTaskToken', () => {
  const callback = (extra: Record<string, unknown>) => one({ Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken', Parameters: { FunctionName: 'Ask', Payload: { 'token.$': '$$.Task.Token', 'order.$': '$.order' } }, ...extra });

  test('a callback Task: the Payload template (with $$.Task.Token) is its parameters, its result is not wrapped, TimeoutSeconds and HeartbeatSeconds bound the wait', () => {
    const ir = irOf(callback({ TimeoutSeconds: 86_400, HeartbeatSeconds: 3600, ResultPath: '$.approval', ResultSelector: { 'by.$': '$.by' } }), 'T');
    expect(ir.handler).toEqual({ kind: 'user', export: 'Ask' });
    expect(ir.io).toEqual({ parameters: { 'token.$': '$$.Task.Token', 'order.$': '$.order' }, resultSelector: { 'by.$': '$.by' }, resultPath: '$.approval' });
    expect(ir.callback).toEqual({ timeoutSeconds: 86_400, heartbeatSeconds: 3600 });
    // The handler keeps its settings' timeout: TimeoutSeconds is the wait's, up to a year.
    expect(ir.settings.timeoutSeconds).toBe(30);
  });

  test('without TimeoutSeconds it waits at most a year; a plain lambda:invoke has no callback', () => {
    expect(irOf(callback({}), 'T').callback).toEqual({ timeoutSeconds: 31_536_000 });
    expect(irOf(one({ Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: 'Fn', 'Payload.$': '$' } }), 'T').callback).toBeUndefined();
  });
});
