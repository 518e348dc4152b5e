/**
 * Task tokens (runtime/contract/task-token.ts) name the deployment of the
 * waiting run, so its answer is routed there: the task-response function
 * (runtime/callbacks/task-response.ts) answers tokens of its own deployment
 * only and invokes the Task's function of that deployment; a token of
 * format 1 (before deployment pinning) is refused with a clear reason.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { handler as respond } from '../../runtime/callbacks/task-response';
import { ENV } from '../../runtime/contract/ir';
import { decodeTaskToken, encodeTaskToken, type TaskToken } from '../../runtime/contract/task-token';

const DEPLOYMENT = `d${'1'.repeat(20)}`;
const OTHER = `d${'2'.repeat(20)}`;
const TOKEN: TaskToken = { workflow: 'W', workflowId: 'run-1', node: 'Ask', invocation: 'i'.repeat(43), secret: 's'.repeat(43), deployment: DEPLOYMENT };

test('a token carries the deployment and decodes to it; a compiled-only IR\'s empty deployment too', () => {
  const token = encodeTaskToken(TOKEN);
  expect(token.startsWith('u2.')).toBe(true);
  expect(decodeTaskToken(token)).toEqual(TOKEN);
  expect(decodeTaskToken(encodeTaskToken({ ...TOKEN, deployment: '' }))).toEqual({ ...TOKEN, deployment: '' });
  expect(decodeTaskToken(encodeTaskToken({ ...TOKEN, deployment: 'latest' }))).toBe('the task token has a malformed part');
});

test('a token of format 1 (before deployment pinning) is refused, saying so', () => {
  const old = `u1.${Buffer.from(JSON.stringify(['W', 'run-1', 'Ask', 'i'.repeat(43), 's'.repeat(43)])).toString('base64url')}`;
  expect(decodeTaskToken(old)).toBe('a task token of format 1, issued by an unum-cdk before deployments were pinned: it names no deployment to route the answer to, and this version reads format 2');
  expect(decodeTaskToken('u3.e30')).toBe('not a unum task token');
});

describe('the task-response function of a deployment', () => {
  let send: jest.SpyInstance;
  beforeEach(() => {
    process.env[ENV.workflow] = 'W';
    process.env[ENV.deployment] = DEPLOYMENT;
    process.env[ENV.taskFunctions] = JSON.stringify({ Ask: `stack-wf-Ask:${DEPLOYMENT}` });
    send = jest.spyOn(LambdaClient.prototype, 'send').mockImplementation(async () => ({ Payload: Buffer.from(JSON.stringify({ task: 'completed' })) }));
  });
  afterEach(() => {
    delete process.env[ENV.workflow];
    delete process.env[ENV.deployment];
    delete process.env[ENV.taskFunctions];
    jest.restoreAllMocks();
  });

  test('invokes the Task\'s function of its deployment (qualified) with a token of its deployment', async () => {
    expect(await respond({ token: encodeTaskToken(TOKEN), success: { ok: 1 } })).toEqual({ task: 'completed' });
    expect(send).toHaveBeenCalledTimes(1);
    expect((send.mock.calls[0][0] as { input: { FunctionName: string } }).input.FunctionName).toBe(`stack-wf-Ask:${DEPLOYMENT}`);
  });

  test('a token of another deployment is answered invalid, naming both: nothing is invoked', async () => {
    const answer = await respond({ token: encodeTaskToken({ ...TOKEN, deployment: OTHER }), success: 1 });
    expect(answer).toEqual({
      task: 'invalid',
      reason: `the task token is of deployment ${OTHER}, and this function is of deployment ${DEPLOYMENT}: an answer goes to the task-response function of the token's deployment`,
    });
    expect(send).not.toHaveBeenCalled();
  });

  test('a token of format 1 is answered invalid with its reason', async () => {
    const answer = await respond({ token: 'u1.e30', heartbeat: true });
    expect(answer).toMatchObject({ task: 'invalid', reason: expect.stringMatching(/^a task token of format 1/) as unknown });
    expect(send).not.toHaveBeenCalled();
  });
});
