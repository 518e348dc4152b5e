/** `AwsDeploymentResources` (runtime/aws/deployment-resources.ts) on stubbed Lambda and IAM clients. */
import * as Iam from '@aws-sdk/client-iam';
import { AwsDeploymentResources, type CommandSender } from '../../runtime/aws/deployment-resources';

/** A client that records each command (its class and input) and answers with `answer`. */
function stub(answer: (name: string, input: Record<string, unknown>) => unknown): CommandSender & { sent: [string, Record<string, unknown>][] } {
  const sent: [string, Record<string, unknown>][] = [];
  return {
    sent,
    async send(command: unknown) {
      const { constructor, input } = command as { constructor: { name: string }; input: Record<string, unknown> };
      sent.push([constructor.name, input]);
      return answer(constructor.name, input);
    },
  };
}

const gone = (name: string) => Object.assign(new Error(`${name}: not found`), { name });

test('Lambda deletions name the qualifier; a resource already gone answers false', async () => {
  const lambda = stub((name, input) => {
    if (name === 'DeleteAliasCommand') throw gone('ResourceNotFoundException');
    return input.Qualifier === '404' ? Promise.reject(gone('ResourceNotFoundException')) : {};
  });
  const loadIam = jest.fn();
  const resources = new AwsDeploymentResources({ lambda, loadIam });
  expect(await resources.deleteEventInvokeConfig('wf-A', 'd1')).toBe(true);
  expect(await resources.deleteAlias('wf-A', 'd1')).toBe(false);
  expect(await resources.deleteVersion('wf-A', '3')).toBe(true);
  expect(await resources.deleteVersion('wf-A', '404')).toBe(false);
  expect(await resources.deleteFunction('wf-B')).toBe(true);
  expect(lambda.sent).toEqual([
    ['DeleteFunctionEventInvokeConfigCommand', { FunctionName: 'wf-A', Qualifier: 'd1' }],
    ['DeleteAliasCommand', { FunctionName: 'wf-A', Name: 'd1' }],
    ['DeleteFunctionCommand', { FunctionName: 'wf-A', Qualifier: '3' }],
    ['DeleteFunctionCommand', { FunctionName: 'wf-A', Qualifier: '404' }],
    ['DeleteFunctionCommand', { FunctionName: 'wf-B' }],
  ]);
  // The IAM client is loaded only to delete a role.
  expect(loadIam).not.toHaveBeenCalled();
});

test('an alias is created, or moved to the version when it names another (the version it named answered), or left as it is', async () => {
  const existing: Record<string, string> = { 'wf-A:d1': '1', 'wf-B:d1': '5' };
  const lambda = stub((name, input) => {
    const key = `${String(input.FunctionName)}:${String(input.Name)}`;
    if (name === 'CreateAliasCommand' && key in existing) throw gone('ResourceConflictException');
    if (name === 'GetAliasCommand') return { Name: input.Name, FunctionVersion: existing[key] };
    return {};
  });
  const resources = new AwsDeploymentResources({ lambda, loadIam: jest.fn() });
  expect(await resources.ensureAlias('wf-A', 'd1', '3')).toBe('1');
  expect(await resources.ensureAlias('wf-B', 'd1', '5')).toBeUndefined();
  expect(await resources.ensureAlias('wf-C', 'live', '2')).toBeUndefined();
  expect(lambda.sent).toEqual([
    ['CreateAliasCommand', { FunctionName: 'wf-A', Name: 'd1', FunctionVersion: '3' }],
    ['GetAliasCommand', { FunctionName: 'wf-A', Name: 'd1' }],
    ['UpdateAliasCommand', { FunctionName: 'wf-A', Name: 'd1', FunctionVersion: '3' }],
    ['CreateAliasCommand', { FunctionName: 'wf-B', Name: 'd1', FunctionVersion: '5' }],
    ['GetAliasCommand', { FunctionName: 'wf-B', Name: 'd1' }],
    ['CreateAliasCommand', { FunctionName: 'wf-C', Name: 'live', FunctionVersion: '2' }],
  ]);
});

test('a conflict without an alias (the function being updated) is tried again, a few times', async () => {
  let conflicts = 2;
  const lambda = stub((name) => {
    if (name === 'CreateAliasCommand' && conflicts-- > 0) throw gone('ResourceConflictException');
    if (name === 'GetAliasCommand') throw gone('ResourceNotFoundException');
    return {};
  });
  const pause = jest.fn(async () => undefined);
  const resources = new AwsDeploymentResources({ lambda, loadIam: jest.fn(), pause });
  expect(await resources.ensureAlias('wf-A', 'd1', '3')).toBeUndefined();
  expect(lambda.sent.map(([name]) => name)).toEqual(['CreateAliasCommand', 'GetAliasCommand', 'CreateAliasCommand', 'GetAliasCommand', 'CreateAliasCommand']);
  expect(pause.mock.calls).toEqual([[250], [500]]);

  const always = new AwsDeploymentResources({ lambda: stub((name) => Promise.reject(gone(name === 'GetAliasCommand' ? 'ResourceNotFoundException' : 'ResourceConflictException'))), loadIam: jest.fn(), pause });
  await expect(always.ensureAlias('wf-A', 'd1', '3')).rejects.toThrow('Lambda refused to create alias d1 of wf-A 5 times (ResourceConflictException), yet has no such alias');
  await expect(new AwsDeploymentResources({ lambda: stub(() => Promise.reject(gone('ResourceNotFoundException'))), loadIam: jest.fn() }).ensureAlias('wf-A', 'd1', '3')).rejects.toThrow('ResourceNotFoundException');
});

test('async-invoke settings are put on the qualifier, the on-failure destination with them', async () => {
  const lambda = stub(() => ({}));
  await new AwsDeploymentResources({ lambda, loadIam: jest.fn() }).putEventInvokeConfig('wf-A', 'live', { maximumRetryAttempts: 0, maximumEventAgeInSeconds: 60, onFailure: 'arn:aws:lambda:us-east-1:1:function:wf-recorder:d1' });
  expect(lambda.sent).toEqual([[
    'PutFunctionEventInvokeConfigCommand',
    { FunctionName: 'wf-A', Qualifier: 'live', MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60, DestinationConfig: { OnFailure: { Destination: 'arn:aws:lambda:us-east-1:1:function:wf-recorder:d1' } } },
  ]]);
});

test('other Lambda errors are thrown', async () => {
  const resources = new AwsDeploymentResources({ lambda: stub(() => Promise.reject(gone('ResourceConflictException'))), loadIam: jest.fn() });
  await expect(resources.deleteVersion('wf-A', '3')).rejects.toThrow('ResourceConflictException: not found');
});

test('a role goes after its inline policies and its managed ones, every page of each', async () => {
  const iam = stub((name, input) => {
    if (name === 'ListRolePoliciesCommand') return input.Marker === undefined ? { PolicyNames: ['p1'], IsTruncated: true, Marker: 'm1' } : { PolicyNames: ['p2'], IsTruncated: false };
    if (name === 'ListAttachedRolePoliciesCommand') return { AttachedPolicies: [{ PolicyName: 'managed', PolicyArn: 'arn:aws:iam::aws:policy/managed' }] };
    if (name === 'DeleteRolePolicyCommand' && input.PolicyName === 'p2') throw gone('NoSuchEntityException');
    return {};
  });
  const loadIam = jest.fn(async () => Iam);
  const resources = new AwsDeploymentResources({ lambda: stub(() => ({})), iam, loadIam });
  expect(await resources.deleteRole('wf-A-d1')).toBe(true);
  expect(iam.sent).toEqual([
    ['ListRolePoliciesCommand', { RoleName: 'wf-A-d1' }],
    ['ListRolePoliciesCommand', { RoleName: 'wf-A-d1', Marker: 'm1' }],
    ['DeleteRolePolicyCommand', { RoleName: 'wf-A-d1', PolicyName: 'p1' }],
    ['DeleteRolePolicyCommand', { RoleName: 'wf-A-d1', PolicyName: 'p2' }],
    ['ListAttachedRolePoliciesCommand', { RoleName: 'wf-A-d1' }],
    ['DetachRolePolicyCommand', { RoleName: 'wf-A-d1', PolicyArn: 'arn:aws:iam::aws:policy/managed' }],
    ['DeleteRoleCommand', { RoleName: 'wf-A-d1' }],
  ]);
  expect(await resources.deleteRole('wf-B-d1')).toBe(true);
  expect(loadIam).toHaveBeenCalledTimes(1);
});

test('a role already gone answers false without deleting anything', async () => {
  const iam = stub(() => Promise.reject(gone('NoSuchEntityException')));
  const resources = new AwsDeploymentResources({ lambda: stub(() => ({})), iam, loadIam: async () => Iam });
  expect(await resources.deleteRole('wf-A-d1')).toBe(false);
  expect(iam.sent.map(([name]) => name)).toEqual(['ListRolePoliciesCommand']);
});
