/**
 * What a JavaScript caller may pass the client: a missing or mistyped field
 * is an UnumClientError naming the method and the field, at construction or
 * before any AWS call (a missing `workflow` used to make startAndWait wait
 * for a run record that could never appear).
 */
import { UnumClient, UnumClientError } from '../../lib/client';

/** An SDK client that fails the test if the client calls AWS at all. */
const noCalls = { send: () => { throw new Error('no AWS call expected'); } } as never;
const valid = { entryFunction: 'wf-Entry', table: 'wf-table', workflow: 'Orders', lambda: noCalls, dynamodb: noCalls };
/** Calls as a JavaScript caller would: no type checks. */
const untyped = (props: Record<string, unknown>): UnumClient => UnumClient.forWorkflow(props as never);

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('UnumClient.forWorkflow', () => {
  test.each([
    ['workflow', { entryFunction: 'wf-Entry', table: 'wf-table' }, "UnumClient.forWorkflow: workflow is missing (the workflow's name (workflowName))"],
    ['entryFunction', { table: 'wf-table', workflow: 'Orders' }, 'UnumClient.forWorkflow: entryFunction is missing'],
    ['table', { entryFunction: 'wf-Entry', workflow: 'Orders' }, 'UnumClient.forWorkflow: table is missing'],
    ['an empty table', { ...valid, table: '' }, "UnumClient.forWorkflow: table must be a non-empty string, got ''"],
    ['a table that is not a string', { ...valid, table: 42 }, 'UnumClient.forWorkflow: table must be a non-empty string, got number'],
    ['a workflow name with a #', { ...valid, workflow: 'a#b' }, "UnumClient.forWorkflow: workflow 'a#b' is not a workflow name"],
    ['an empty taskResponseFunction', { ...valid, taskResponseFunction: '' }, "UnumClient.forWorkflow: taskResponseFunction must be a non-empty string, got ''"],
    ['a dynamodb that is no SDK client', { ...valid, dynamodb: {} }, 'UnumClient.forWorkflow: dynamodb must be an AWS SDK v3 client (with a send method), got object'],
    ['callbackTasks that are not names', { ...valid, callbackTasks: 'Ask' }, 'UnumClient.forWorkflow: callbackTasks must be an array of node names'],
    // The client names the alias: the entry's live alias, the token's deployment for a task response.
    ['an entryFunction with a qualifier', { ...valid, entryFunction: 'wf-Entry:live' }, "UnumClient.forWorkflow: entryFunction 'wf-Entry:live' has a qualifier (live): give the function without one"],
    ['an entryFunction ARN with a qualifier', { ...valid, entryFunction: 'arn:aws:lambda:us-east-1:123456789012:function:wf-Entry:$LATEST' }, 'has a qualifier ($LATEST)'],
    ['a taskResponseFunction with a qualifier', { ...valid, taskResponseFunction: 'wf-TaskResponse:d0123456789abcdef0123' }, 'taskResponseFunction \'wf-TaskResponse:d0123456789abcdef0123\' has a qualifier'],
  ])('%s: an UnumClientError naming the field', (_what, props, message) => {
    const err = thrown(() => untyped(props));
    expect(err).toBeInstanceOf(UnumClientError);
    expect(err.message).toContain(message);
  });

  test('no props at all', () => {
    expect(() => UnumClient.forWorkflow(undefined as never)).toThrow('UnumClient.forWorkflow: props must be an object with entryFunction, table and workflow');
  });

  test('valid props make a client; an unqualified ARN or partial ARN is no qualifier', () => {
    expect(untyped(valid).workflow).toBe('Orders');
    expect(untyped({ ...valid, entryFunction: 'arn:aws:lambda:us-east-1:123456789012:function:wf-Entry' }).entryFunction).toMatch(/wf-Entry$/);
    expect(untyped({ ...valid, entryFunction: '123456789012:function:wf-Entry' }).entryFunction).toMatch(/wf-Entry$/);
  });
});

describe('the other entry points', () => {
  test('fromStackOutputs: outputs must be an object', () => {
    expect(() => UnumClient.fromStackOutputs(undefined as never)).toThrow('UnumClient.fromStackOutputs: outputs is missing');
    expect(() => UnumClient.fromStackOutputs([] as never)).toThrow('UnumClient.fromStackOutputs: outputs must be an object, got an array');
    expect(() => UnumClient.fromStackOutputs({}, 7 as never)).toThrow('UnumClient.fromStackOutputs: workflow must be a non-empty string, got number');
  });

  test('fromCloudAssembly: the directory must be given', () => {
    expect(() => UnumClient.fromCloudAssembly(undefined as never)).toThrow('UnumClient.fromCloudAssembly: dir is missing (the synthesized app, e.g. cdk.out)');
  });

  test('run methods check the run id before any AWS call', async () => {
    const client = untyped(valid);
    for (const call of [
      () => client.status(undefined as never),
      () => client.result('a b'),
      () => client.wait(undefined as never),
      () => client.inspect(42 as never),
      () => client.stop(''),
      () => client.redrive(undefined as never),
      () => client.waitingTasks(undefined as never),
    ]) {
      await expect(call()).rejects.toThrow(UnumClientError);
    }
    await expect(client.status(undefined as never)).rejects.toThrow('status: workflowId is missing (the id of a run)');
    await expect(client.result('a b')).rejects.toThrow("result: invalid workflow id 'a b'");
    await expect(client.redrive('r1', { deployment: 'newest' as never })).rejects.toThrow("redrive: options.deployment must be 'latest' or absent (the run's own deployment), got \"newest\"");
  });

  test('start needs an input; the task methods need a token (and an output or an error)', async () => {
    const client = untyped({ ...valid, taskResponseFunction: 'wf-TaskResponse' });
    await expect(client.start(undefined as never)).rejects.toThrow("start: input is missing (the run's input: any JSON value, e.g. {})");
    await expect(client.sendTaskSuccess(undefined as never, {})).rejects.toThrow('sendTaskSuccess: token is missing');
    await expect(client.sendTaskSuccess('u1.x', undefined as never)).rejects.toThrow('sendTaskSuccess: output is missing');
    await expect(client.sendTaskFailure('u1.x', undefined as never)).rejects.toThrow('sendTaskFailure: error is missing');
    await expect(client.sendTaskHeartbeat('' as never)).rejects.toThrow("sendTaskHeartbeat: token must be a non-empty string, got ''");
  });
});
