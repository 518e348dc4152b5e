/**
 * Every schedule a run makes targets its own deployment
 * (runtime/aws/eventbridge-scheduler.ts): the target ARN is the function ARN
 * prefix and the qualified name the runtime gives, `<prefix><name>:<deployment>`,
 * for a Wait's wake-up (the IR's function names), a callback Task's checks
 * (its own function, qualified) and the run's timeout (UNUM_RUN_TIMEOUT_FUNCTION).
 */
import { EventBridgeScheduler } from '../../runtime/aws/eventbridge-scheduler';
import { ENV, type NodeIR } from '../../runtime/contract/ir';
import { ownFunctionName } from '../../runtime/contract/naming';

const PREFIX = 'arn:aws:lambda:eu-west-1:123456789012:function:';
const DEPLOYMENT = `d${'ab'.repeat(10)}`;

beforeEach(() => {
  process.env[ENV.functionArnPrefix] = PREFIX;
  process.env[ENV.scheduleGroup] = 'group';
  process.env[ENV.schedulerRoleArn] = 'arn:aws:iam::123456789012:role/scheduler';
});
afterEach(() => {
  delete process.env[ENV.functionArnPrefix];
  delete process.env[ENV.scheduleGroup];
  delete process.env[ENV.schedulerRoleArn];
});

test('the target ARN is the prefix and the qualified function name, so the schedule invokes the alias of the run\'s deployment', async () => {
  const sent: { input: { Target: { Arn: string } } }[] = [];
  const scheduler = new EventBridgeScheduler();
  // The client the scheduler would create: one that records what it is sent.
  Object.assign(scheduler, { client: { send: async (c: (typeof sent)[number]) => sent.push(c) } });
  await scheduler.schedule({ name: 'n', functionName: `stack-wf-W:${DEPLOYMENT}`, event: { unum: {} } as never, at: Date.now(), maxDeliverySeconds: 90 });
  expect(sent.map((c) => c.input.Target.Arn)).toEqual([`${PREFIX}stack-wf-W:${DEPLOYMENT}`]);
});

describe('a function\'s own name, as its callback checks and a redrive\'s parked event name it', () => {
  const ir = (functionNames: Record<string, string>, deployment = DEPLOYMENT): Pick<NodeIR, 'node' | 'deployment' | 'functionNames'> => ({ node: 'Ask', deployment, functionNames });

  test('qualified with the deployment: its IR\'s own function name where it has one, else Lambda\'s unqualified name', () => {
    expect(ownFunctionName(ir({ Ask: `stack-wf-Ask:${DEPLOYMENT}` }), { functionName: 'stack-wf-Ask' })).toBe(`stack-wf-Ask:${DEPLOYMENT}`);
    expect(ownFunctionName(ir({}), { functionName: 'stack-wf-Ask' })).toBe(`stack-wf-Ask:${DEPLOYMENT}`);
    expect(ownFunctionName(ir({}), {})).toBeUndefined();
  });

  test('an IR of no deployment (compiled, not deployed) keeps the name as given', () => {
    expect(ownFunctionName(ir({ Ask: 'fn-Other' }, ''), { functionName: 'fn-Ask' })).toBe('fn-Ask');
    expect(ownFunctionName(ir({ Ask: 'fn-Ask' }, ''), {})).toBe('fn-Ask');
  });
});
