/**
 * Pinned deployments (issue 34): every function has a version per deployment,
 * which the deployment's custom resource aliases with the deployment id, and
 * everything a run invokes names that alias: no IR, env, grant, schedule
 * target or async setting names `$LATEST` or an unqualified function. The
 * deployment id is a deterministic hash of what a run depends on; the custom
 * resource (which moves `live` last) waits for the whole deployment; old
 * deployments are retained (functions `RetainExceptOnCreate`, versions and roles `Retain`), the schedule group is not.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { UnumWorkflow, WORKFLOW_METADATA_TYPE, type UnumWorkflowProps, type WorkflowMetadata } from '../../lib/construct';
import { physicalFunctionName, workflowFunctionPrefix } from '../../lib/construct/function-names';
import { Definition, IntegrationPattern, Parallel, Pass, Task, Wait, WaitTime } from '../../lib/definition';
import { DEPLOYMENT_ID_PATTERN, IR_FILE_NAME, RECORDER_FILE_NAME, type NodeIR, type RecorderSpec } from '../../runtime/contract/ir';
import { chain, HANDLERS, loop } from './fixtures/workflows';
import { anyAliasOf, STACK_NAME } from './helpers';

type Resource = { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[]; DeletionPolicy?: string; UpdateReplacePolicy?: string; Metadata?: Record<string, unknown> };

const task = (id: string, extra: object = {}): Task => new Task(id, { entry: HANDLERS, handler: 'first', ...extra });

/** Every way a run invokes: a loop, a Parallel with a Catch (the recorder invokes its join), a Wait, a callback Task, a run timeout. */
function everything(): Definition {
  const both = new Parallel('Both').branch(task('B'), task('C')).addCatch(new Pass('Caught'));
  return Definition.from(
    task('A')
      .next(both)
      .next(new Wait('Sleep', { time: WaitTime.duration(Duration.hours(1)) }))
      .next(task('Approve', { integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.hours(1) }))
      .next(task('Last')),
  );
}

/** Synthesizes one workflow into a fresh directory: the template and the files of every function's asset. */
function synth(props: UnumWorkflowProps) {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'unum-deployments-')) });
  const stack = new Stack(app, STACK_NAME);
  const workflow = new UnumWorkflow(stack, 'Flow', props);
  const assembly = app.synth();
  const template = JSON.parse(fs.readFileSync(path.join(assembly.directory, `${STACK_NAME}.template.json`), 'utf8')) as { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };
  /** A file of the asset of the function of this name. */
  const assetFile = <T>(functionName: string, file: string): T => {
    const fn = Object.values(template.Resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.FunctionName === functionName) as Resource;
    const asset = fn.Metadata?.['aws:asset:path'] as string;
    return JSON.parse(fs.readFileSync(path.join(assembly.directory, asset, file), 'utf8')) as T;
  };
  const ofType = (type: string): Array<[string, Resource]> => Object.entries(template.Resources).filter(([, r]) => r.Type === type);
  return { app, stack, workflow, template, assetFile, ofType };
}

const arnEnd = (arn: unknown): string => {
  const parts = (arn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  return String(parts[parts.length - 1]);
};

describe('a run invokes only the aliases of its deployment', () => {
  const s = synth({ definition: everything(), timeout: Duration.days(1) });
  const d = s.workflow.deployment;
  const name = (node: string): string => physicalFunctionName(STACK_NAME, 'Flow', node);
  const text = JSON.stringify(s.template);

  test('the deployment id has the contract\'s shape', () => {
    expect(d).toMatch(DEPLOYMENT_ID_PATTERN);
  });

  test('nothing names $LATEST', () => {
    expect(text).not.toContain('$LATEST');
  });

  test('every IR belongs to the deployment and names its successors qualified with it', () => {
    const metadata = s.workflow.node.metadata.find((m) => m.type === WORKFLOW_METADATA_TYPE)?.data as WorkflowMetadata;
    for (const [node, { functionName, successors }] of Object.entries(metadata.nodes)) {
      const ir = s.assetFile<NodeIR>(functionName, IR_FILE_NAME);
      expect(ir.deployment).toBe(d);
      expect(ir.functionNames).toEqual(Object.fromEntries(successors.map((succ) => [succ, `${name(succ)}:${d}`])));
      if (node === 'A') expect(Object.keys(ir.functionNames).length).toBeGreaterThan(0);
    }
  });

  test("the failure recorder's spec names the joins it invokes qualified, and its deployment", () => {
    const spec = s.assetFile<RecorderSpec>(name('unum-failure'), RECORDER_FILE_NAME);
    expect(spec.deployment).toBe(d);
    expect(spec.functionNames).toEqual({ 'Both.Join': `${name('Both.Join')}:${d}` });
  });

  /** The resources of the invoke grants of the policies whose logical ids `which` accepts. */
  const invoked = (which: (policyId: string) => boolean): unknown[] =>
    s.ofType('AWS::IAM::Policy').filter(([id]) => which(id)).flatMap(([, p]) =>
      (p.Properties?.PolicyDocument as { Statement: Array<{ Action: unknown; Resource: unknown }> }).Statement
        .filter((st) => ([] as unknown[]).concat(st.Action).includes('lambda:InvokeFunction'))
        .flatMap((st) => ([] as unknown[]).concat(st.Resource)),
    );

  test('every invoke grant names an alias of the deployment, never a function', () => {
    const resources = invoked((id) => !id.startsWith('FlowRunControl'));
    expect(resources.length).toBeGreaterThan(0);
    const qualified = new Set([...Object.keys(s.workflow.compiled.nodes), 'unum-failure'].map((n) => `:function:${name(n)}:${d}`));
    for (const resource of resources) expect(qualified).toContain(arnEnd(resource));
  });

  test("but the run-control function's: any alias of the nodes' functions (a redrive resumes a run on its own deployment), never a function, the recorder or the task-response function", () => {
    expect(invoked((id) => id.startsWith('FlowRunControl'))).toEqual(Object.values(s.workflow.functions).map(anyAliasOf));
  });

  test('schedules invoke aliases: the Scheduler role may invoke the Wait, the callback Task and the recorder, qualified', () => {
    const role = s.workflow.node.findChild('Waits').node.findChild(`Role${d}`) as iam.Role;
    const roleId = s.stack.resolve((role.node.defaultChild as CfnResource).logicalId) as string;
    const [, policy] = s.ofType('AWS::IAM::Policy').find(([, p]) => JSON.stringify(p.Properties?.Roles) === JSON.stringify([{ Ref: roleId }])) as [string, Resource];
    const statement = (policy.Properties?.PolicyDocument as { Statement: Array<{ Resource: unknown[] }> }).Statement[0];
    expect(statement.Resource.map(arnEnd).sort()).toEqual(['Approve', 'Sleep', 'unum-failure'].map((n) => `:function:${name(n)}:${d}`).sort());
  });

  test('the environment names qualified functions: the run timeout, the task-response targets; the recorder, responder, run-control function and sweeper know the deployment', () => {
    const env = (fnName: string): Record<string, unknown> =>
      ((s.ofType('AWS::Lambda::Function').find(([, r]) => r.Properties?.FunctionName === fnName)?.[1].Properties?.Environment as { Variables: Record<string, unknown> }).Variables);
    expect(env(name('A')).UNUM_RUN_TIMEOUT_FUNCTION).toBe(`${name('unum-failure')}:${d}`);
    expect(JSON.parse(env(name('unum-task-response')).UNUM_TASK_FUNCTIONS as string)).toEqual({ Approve: `${name('Approve')}:${d}` });
    for (const fn of ['unum-failure', 'unum-task-response', 'unum-run-control', 'unum-sweeper']) expect(env(name(fn)).UNUM_DEPLOYMENT).toBe(d);
    expect(env(name('A')).UNUM_FUNCTION_ARN_PREFIX).toBeDefined();
  });

  /** The `Custom::UnumDeployment` that activates the deployment. */
  const record = (): [string, Resource] => s.ofType('Custom::UnumDeployment')[0];

  test('no alias or async config is a CloudFormation resource (the custom resource makes them: a revert finds its alias retained)', () => {
    expect(s.ofType('AWS::Lambda::Alias')).toEqual([]);
    expect(s.ofType('AWS::Lambda::EventInvokeConfig')).toEqual([]);
  });

  test("async settings of each alias, in the custom resource: the recorder's alias of the deployment as destination, the dead letters for the recorder's", () => {
    const functions = (record()[1].Properties as { Functions: Array<{ Node: string; Async?: { MaximumRetryAttempts: number; MaximumEventAgeInSeconds: number; OnFailure: unknown } }> }).Functions;
    for (const f of functions) {
      if (f.Node === 'unum-task-response' || f.Node === 'unum-run-control') expect(f.Async).toBeUndefined();
      else if (f.Node === 'unum-failure') expect(f.Async).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600, OnFailure: { 'Fn::GetAtt': [expect.stringMatching(/^FlowDeadLetters/), 'Arn'] } });
      else expect([f.Node, arnEnd(f.Async?.OnFailure)]).toEqual([f.Node, `:function:${name('unum-failure')}:${d}`]);
    }
    expect(functions.find((f) => f.Node === 'A')?.Async).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 });
  });

  test('every function of the deployment has a version; the entry node is named for live', () => {
    const pinned = s.ofType('AWS::Lambda::Function').filter(([, r]) => r.Properties?.FunctionName !== name('unum-sweeper'));
    expect(s.ofType('AWS::Lambda::Version').map(([, r]) => r.Properties?.FunctionName).sort()).toEqual(pinned.map(([id]) => ({ Ref: id })).sort());
    expect(record()[1].Properties?.EntryNode).toBe(s.workflow.compiled.entry);
  });

  test('the custom resource (which moves live last) waits for every function, version, role and policy of the deployment', () => {
    const parts = Object.entries(s.template.Resources)
      .filter(([id, r]) => ['AWS::Lambda::Function', 'AWS::Lambda::Version', 'AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::Scheduler::ScheduleGroup'].includes(r.Type) && !id.startsWith('FlowSweeper'))
      .map(([id]) => id);
    expect(parts.length).toBeGreaterThan(20);
    for (const part of parts) expect(record()[1].DependsOn).toContain(part);
  });

  test('what a later deployment replaces is retained: functions except by the rollback of their first deploy; versions, roles and policies even by a rollback (an alias may name them); not the sweeper\'s', () => {
    const retained: Record<string, { DeletionPolicy: string; UpdateReplacePolicy: string }> = {
      'AWS::Lambda::Function': { DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' },
      'AWS::Lambda::Version': { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' },
      'AWS::IAM::Role': { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' },
      'AWS::IAM::Policy': { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' },
    };
    for (const [type, expected] of Object.entries(retained)) {
      const resources = s.ofType(type);
      expect(resources.length).toBeGreaterThan(0);
      for (const [id, r] of resources) {
        const policies = { DeletionPolicy: r.DeletionPolicy, UpdateReplacePolicy: r.UpdateReplacePolicy };
        expect([id, policies]).toEqual([id, id.startsWith('FlowSweeper') ? { DeletionPolicy: undefined, UpdateReplacePolicy: undefined } : expected]);
      }
    }
  });

  test('the schedule group is not retained: it never leaves the template, and goes with the stack', () => {
    const groups = s.ofType('AWS::Scheduler::ScheduleGroup');
    expect(groups).toHaveLength(1);
    expect([groups[0][1].DeletionPolicy, groups[0][1].UpdateReplacePolicy]).toEqual([undefined, undefined]);
  });

  test('the custom resource names no schedule group: its Delete leaves the group to CloudFormation', () => {
    expect(Object.keys(record()[1].Properties ?? {}).sort()).toEqual(['Deployment', 'EntryNode', 'Functions', 'Graph', 'HandoffSeconds', 'RunRetentionSeconds', 'SchedulerRoleName', 'ServiceToken']);
  });

  test('each role of the deployment has its own logical id and the workflow\'s IAM path; the sweeper\'s has neither', () => {
    const roles = s.ofType('AWS::IAM::Role');
    const path = (roles.find(([id]) => id.startsWith('FlowNodesA'))?.[1].Properties?.Path) as string;
    expect(path).toMatch(/^\/unum\/[0-9a-f]{16}\/$/);
    for (const [id, r] of roles) {
      if (id.startsWith('FlowSweeper')) expect([id, r.Properties?.Path]).toEqual([id, undefined]);
      else expect([id.includes(`Role${d}`), r.Properties?.Path]).toEqual([true, path]);
    }
  });

  test('outputs and metadata name the deployment', () => {
    expect(s.template.Outputs.FlowDeployment.Value).toBe(d);
    const metadata = s.workflow.node.metadata.find((m) => m.type === WORKFLOW_METADATA_TYPE)?.data as WorkflowMetadata;
    expect(metadata).toMatchObject({ version: 2, deployment: d });
  });
});

describe('client grants', () => {
  const s = synth({ definition: everything() });
  const grantee = (id: string): iam.Role => new iam.Role(s.stack, id, { assumedBy: new iam.AccountRootPrincipal() });
  const invoked = (role: iam.Role): unknown[] =>
    s.stack.resolve((role.node.tryFindChild('DefaultPolicy') as iam.Policy).document.toJSON().Statement)
      .filter((st: { Action: unknown }) => ([] as unknown[]).concat(st.Action).includes('lambda:InvokeFunction'))
      .flatMap((st: { Resource: unknown }) => ([] as unknown[]).concat(st.Resource));
  const any = (fnId: RegExp): unknown => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(fnId), 'Arn'] }, ':*']] });

  test('grantStart: the live alias only', () => {
    const role = grantee('Starter');
    s.workflow.grantStart(role);
    expect(invoked(role)).toEqual([{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^FlowNodesAFunction/), 'Arn'] }, ':live']] }]);
  });

  test('grantRecover: any alias of the nodes\' functions, never the functions themselves', () => {
    const role = grantee('Recoverer');
    s.workflow.grantRecover(role);
    expect(invoked(role)).toEqual(Object.keys(s.workflow.functions).map(() => any(/^FlowNodes/)));
  });

  test('grantStop and grantRedrive: their alias of the run-control function, fixed (not a deployment\'s), and no node\'s function', () => {
    for (const [grant, alias] of [['grantStop', 'stop'], ['grantRedrive', 'redrive']] as const) {
      const role = grantee(grant);
      s.workflow[grant](role);
      expect(invoked(role)).toEqual([{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^FlowRunControlFunction/), 'Arn'] }, `:${alias}`]] }]);
    }
  });

  test('the run-control function reads (never writes) this workflow\'s deployment records, to compare a run\'s deployment with the latest', () => {
    const role = s.workflow.runControlFunction.role as iam.Role;
    const statements = s.stack.resolve((role.node.tryFindChild('DefaultPolicy') as iam.Policy).document.toJSON().Statement) as Array<{ Action: unknown; Condition?: Record<string, Record<string, string[]>> }>;
    const onRecords = statements.filter((st) => JSON.stringify(st.Condition ?? {}).includes('dep#'));
    expect(onRecords).toEqual([expect.objectContaining({
      Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['dep#Flow', 'dep#Flow#*'] } },
    })]);
  });

  test('grantTaskResponse: any alias of the task-response function (a token names its run\'s deployment)', () => {
    const role = grantee('Responder');
    s.workflow.grantTaskResponse(role);
    expect(invoked(role)).toEqual([any(/^FlowTaskResponseFunction/)]);
  });
});

describe('the deployment id', () => {
  const id = (props: UnumWorkflowProps): string => {
    const app = new App();
    return new UnumWorkflow(new Stack(app, STACK_NAME), 'Flow', props).deployment;
  };

  test('the same app synthesized twice gives the same id', () => {
    expect(id({ definition: everything() })).toBe(id({ definition: everything() }));
    expect(id({ definition: loop() })).toBe(id({ definition: loop() }));
  });

  test('a change to a node\'s IR, memory, environment or the workflow\'s settings gives a new one', () => {
    const base = id({ definition: chain() });
    const changed = [
      id({ definition: chain({ b: { handler: 'third' } }) }),
      id({ definition: chain({ b: { memorySize: 512 } }) }),
      id({ definition: chain({ b: { environment: { MODE: 'fast' } } }) }),
      id({ definition: chain({ c: { retryAttempts: 0 } }) }),
      id({ definition: chain(), timeout: Duration.hours(1) }),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  test('a change to a handler\'s code gives a new one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-deployment-code-'));
    const withCode = (code: string): string => {
      const entry = path.join(dir, `${code.length}.ts`);
      fs.writeFileSync(entry, `export async function first(input: { n: number }): Promise<{ n: number }> { return { n: ${code} }; }\n`);
      return id({ definition: Definition.from(new Task('A', { entry, handler: 'first' })) });
    };
    expect(withCode('input.n + 1')).not.toBe(withCode('input.n + 10'));
  });

  test('in a stack excluded from bundling the id comes from the IR and settings alone, and is stable', () => {
    const unbundled = (definition: Definition): string => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
      return new UnumWorkflow(new Stack(app, STACK_NAME), 'Flow', { definition }).deployment;
    };
    expect(unbundled(chain())).toBe(unbundled(chain()));
    expect(unbundled(chain())).not.toBe(unbundled(chain({ b: { memorySize: 512 } })));
  });
});

describe('the sweeper', () => {
  const s = synth({ definition: everything() });
  const d = s.workflow.deployment;
  const t = Template.fromJSON(s.template);
  const sweeper = physicalFunctionName(STACK_NAME, 'Flow', 'unum-sweeper');

  test('one unpinned function, run daily and by the deployment\'s custom resource, which lists every function of the deployment with its version and role', () => {
    t.hasResourceProperties('AWS::Lambda::Function', { FunctionName: sweeper, Environment: { Variables: { UNUM_WORKFLOW: 'Flow', UNUM_DEPLOYMENT: d, UNUM_TABLE: Match.anyValue() } } });
    t.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 day)', Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FlowSweeperFunction'), 'Arn'] } })] });
    const [, record] = s.ofType('Custom::UnumDeployment')[0];
    const props = record.Properties as { Deployment: string; Functions: Array<{ Node: string; FunctionName: string; Version: unknown; RoleName: unknown }>; SchedulerRoleName: unknown; Graph: Record<string, string[]> };
    expect(props.Deployment).toBe(d);
    expect(props.Functions.map((f) => f.Node).sort()).toEqual([...Object.keys(s.workflow.compiled.nodes), 'unum-failure', 'unum-run-control', 'unum-task-response'].sort());
    for (const f of props.Functions) {
      expect(f.FunctionName).toBe(physicalFunctionName(STACK_NAME, 'Flow', f.Node));
      expect(f.Version).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/CurrentVersion/), 'Version'] });
      expect(f.RoleName).toEqual({ Ref: expect.stringContaining(`Role${d}`) });
    }
    expect(props.SchedulerRoleName).toEqual({ Ref: expect.stringMatching(new RegExp(`^FlowWaitsRole${d}`)) });
    expect(props.Graph.A).toEqual(s.workflow.compiled.nodes.A.successors);
  });

  test('its role deletes only the workflow\'s functions and the roles under its path, and reads its records', () => {
    const role = s.workflow.node.findChild('Sweeper').node.findChild('Role') as iam.Role;
    const statements = s.stack.resolve((role.node.tryFindChild('DefaultPolicy') as iam.Policy).document.toJSON().Statement) as Array<{ Action: string | string[]; Resource: unknown }>;
    const on = (action: string): unknown => statements.find((st) => ([] as string[]).concat(st.Action).includes(action))?.Resource;
    expect(arnEnd(on('lambda:DeleteFunction'))).toBe(`:function:${workflowFunctionPrefix(STACK_NAME, 'Flow')}*`);
    expect(arnEnd(on('iam:DeleteRole'))).toMatch(/^:role\/unum\/[0-9a-f]{16}\/\*$/);
    expect(JSON.stringify(on('dynamodb:Query'))).toContain('/index/runs');
    const actions = [...new Set(statements.flatMap((st) => ([] as string[]).concat(st.Action)))].sort();
    expect(actions).toEqual([
      'dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem',
      'iam:DeleteRole', 'iam:DeleteRolePolicy', 'iam:DetachRolePolicy', 'iam:ListAttachedRolePolicies', 'iam:ListRolePolicies',
      'lambda:CreateAlias', 'lambda:DeleteAlias', 'lambda:DeleteFunction', 'lambda:DeleteFunctionEventInvokeConfig', 'lambda:GetAlias', 'lambda:PutFunctionEventInvokeConfig', 'lambda:UpdateAlias',
      'logs:CreateLogStream', 'logs:PutLogEvents',
    ]);
  });

  test('every function name of the workflow starts with the prefix its rights are scoped by, shortened names too', () => {
    for (const [stack, workflow] of [[STACK_NAME, 'Flow'], ['AVeryLongStackNameThatGoesOnAndOn', 'AndAWorkflowNameThatIsLongToo.x']]) {
      for (const node of ['A', 'unum-failure', 'SomeRatherLongNodeName.Join']) expect(physicalFunctionName(stack, workflow, node).startsWith(workflowFunctionPrefix(stack, workflow))).toBe(true);
    }
  });

  test('a workflow without Waits or callback Tasks still has its schedule group (older deployments\' schedules), but no Scheduler role', () => {
    const plain = synth({ definition: chain() });
    expect(plain.ofType('AWS::Scheduler::ScheduleGroup').map(([, r]) => r.Properties?.Name)).toEqual([physicalFunctionName(STACK_NAME, 'Flow', 'waits')]);
    expect(plain.ofType('AWS::IAM::Role').filter(([id]) => id.startsWith('FlowWaits'))).toEqual([]);
    const [id] = plain.ofType('AWS::Scheduler::ScheduleGroup')[0];
    const [, record] = plain.ofType('Custom::UnumDeployment')[0];
    expect(record.DependsOn).toContain(id);
    expect(record.Properties?.SchedulerRoleName).toBeUndefined();
  });

  test('its name is reserved: a node named unum-sweeper collides', () => {
    expect(() => synth({ definition: Definition.from(task('unum-sweeper')) })).toThrow(/gets the same function name/);
  });
});
