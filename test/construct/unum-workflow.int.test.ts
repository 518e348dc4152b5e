import * as fs from 'fs';
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Choice, Condition, Definition, Parallel, Task } from '../../lib/definition';
import { UnumWorkflow, UnumWorkflowError, WORKFLOW_METADATA_TYPE, type WorkflowMetadata } from '../../lib/construct';
import { FUNCTION_TIMEOUT_MARGIN_SECONDS } from '../../lib/compiler/function-settings';
import { physicalFunctionName } from '../../lib/construct/function-names';
import { chain, fanOut, HANDLERS, loop } from './fixtures/workflows';
import { envelopeKeyKey, RUN_ITEM_KINDS, workflowKeyPatterns } from '../../runtime/contract/table';
import { aliasArn, anyAliasOf, asyncOf, invokeResources, liveArnOf, roleStatements, STACK_NAME, statementsOf, synthWorkflow } from './helpers';

const fnName = (node: string): string => physicalFunctionName(STACK_NAME, 'Flow', node);

describe('UnumWorkflow resources', () => {
  const { workflow, template } = synthWorkflow({ definition: chain() });

  test('one function per node plus the failure recorder, the run-control function and the sweeper, one table, one log group, one dead-letter queue', () => {
    const nodes = Object.keys(workflow.compiled.nodes);
    expect(nodes).toEqual(['A', 'B', 'C']);
    template.resourceCountIs('AWS::Lambda::Function', nodes.length + 3);
    // The deployment's custom resource puts them on the aliases it makes.
    template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 0);
    template.resourceCountIs('Custom::UnumDeployment', 1);
    template.resourceCountIs('AWS::SQS::Queue', 1);
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.resourceCountIs('AWS::Logs::LogGroup', 1);
    template.resourceCountIs('AWS::IAM::Role', nodes.length + 3);
  });

  test('functions: deterministic names, arm64, Node.js 24, JSON logs, per-node settings, table env', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: fnName('A'),
      Architectures: ['arm64'],
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
      MemorySize: 256,
      // The handler's 30 s (default timeoutSeconds) plus the runtime's margin.
      Timeout: 30 + FUNCTION_TIMEOUT_MARGIN_SECONDS,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: Match.stringLikeRegexp('^FlowLogs') } },
      Environment: { Variables: { UNUM_TABLE: { Ref: Match.stringLikeRegexp('^FlowTable') } } },
      Code: { S3Key: Match.stringLikeRegexp('^[0-9a-f]{64}\\.zip$') },
    });
    expect(template.findResources('AWS::Lambda::Function', { Properties: { RecursiveLoop: Match.anyValue() } })).toEqual({});
  });

  test('table: on-demand, string key pk, TTL on ttl, AWS-owned encryption, retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'runs', AttributeType: 'S' }, { AttributeName: 'runsSk', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        SSESpecification: { SSEEnabled: false },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
      },
    });
  });

  test('async invoke, on the deployment\'s alias: 2 retries, 6 hours, the failure recorder\'s alias of the deployment as on-failure destination', () => {
    expect(asyncOf(template, fnName('A'))).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600, OnFailure: aliasArn(fnName('unum-failure'), workflow.deployment) });
  });

  test('dead letters: the recorder retries twice for up to 6 hours, then sends to a 14-day, encrypted, TLS-only, retained queue', () => {
    const queueId = Stack.of(workflow).resolve((workflow.deadLetterQueue.node.defaultChild as sqs.CfnQueue).logicalId) as string;
    template.hasResource('AWS::SQS::Queue', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true },
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: { Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })] },
    });
    expect(asyncOf(template, fnName('unum-failure'))).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600, OnFailure: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    // The recorder alone may send; no node may touch the queue.
    const senders = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes(queueId));
    expect(senders.map((p) => p.Properties.Roles)).toEqual([[{ Ref: Stack.of(workflow).resolve(((workflow.failureRecorder.role as iam.Role).node.defaultChild as iam.CfnRole).logicalId) }]]);
    const metric = workflow.metricDeadLetters();
    expect([metric.namespace, metric.metricName, metric.statistic]).toEqual(['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'Maximum']);
  });

  test('the failure recorder gets the run retention, the TTL of what it writes', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-unum-failure`,
      Environment: { Variables: { UNUM_RUN_RETENTION: String(30 * 24 * 3600), UNUM_HISTORY: Match.absent() } },
    });
  });

  test('IAM: each function invokes exactly its successors\' aliases of the deployment, by ARN from the deterministic name', () => {
    const d = workflow.deployment;
    const recorderArn = aliasArn(fnName('unum-failure'), d);
    expect(invokeResources(statementsOf(template, workflow, 'A'))).toEqual([aliasArn(fnName('B'), d), recorderArn]);
    expect(invokeResources(statementsOf(template, workflow, 'B'))).toEqual([aliasArn(fnName('C'), d), recorderArn]);
    expect(invokeResources(statementsOf(template, workflow, 'C'))).toEqual([recorderArn]);
  });

  test('IAM: no managed policies, no "*" resource, table access on this table only', () => {
    template.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    for (const policy of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>) {
        expect(statement.Resource).not.toEqual('*');
        const actions = ([] as unknown[]).concat(statement.Action);
        if (actions.some((a) => String(a).startsWith('dynamodb:'))) {
          expect(JSON.stringify(statement.Resource)).toMatch(/FlowTable/);
        }
      }
    }
  });

  test('outputs with stable ids', () => {
    template.hasOutput('FlowEntryFunctionName', { Value: { Ref: Match.stringLikeRegexp('^FlowNodesAFunction') } });
    template.hasOutput('FlowEntryFunctionArn', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FlowNodesAFunction'), 'Arn'] } });
    template.hasOutput('FlowTableName', { Value: { Ref: Match.stringLikeRegexp('^FlowTable') } });
    template.hasOutput('FlowDeadLetterQueueUrl', { Value: { Ref: Match.stringLikeRegexp('^FlowDeadLetters') } });
    template.hasOutput('FlowDeployment', { Value: workflow.deployment });
  });

  test('public surface', () => {
    expect(Object.keys(workflow.functions)).toEqual(['A', 'B', 'C']);
    expect(workflow.entryFunction).toBe(workflow.functions.A);
    expect(workflow.workflowName).toBe('Flow');
    expect(workflow.deployment).toMatch(/^d[0-9a-f]{20}$/);
    const metric = workflow.metricTransitions();
    expect(metric.namespace).toBe('Unum');
    expect(metric.metricName).toBe('Transitions');
    expect(metric.dimensions).toEqual({ Workflow: 'Flow' });
    expect(workflow.metricFailures().metricName).toBe('Failures');
    expect(workflow.metricDuplicateExecutions().metricName).toBe('DuplicateExecutions');
    expect(workflow.metricFanInCompletions().metricName).toBe('FanInCompletions');
    expect(workflow.metricUserCodeDuration().statistic).toBe('Average');
    expect(workflow.metricRejectedEvents().metricName).toBe('RejectedEvents');
    expect(workflow.metric('Custom', { period: Duration.minutes(1) }).period.toSeconds()).toBe(60);
  });
});

describe('UnumWorkflow settings', () => {
  test('workflow-level retry and event age apply; a node override wins', () => {
    const { template } = synthWorkflow({
      definition: chain({ b: { retryAttempts: 0, maxEventAgeSeconds: 600 } }),
      retryAttempts: 1,
      maxEventAge: Duration.hours(1),
    });
    expect(asyncOf(template, fnName('A'))).toMatchObject({ MaximumRetryAttempts: 1, MaximumEventAgeInSeconds: 3600 });
    expect(asyncOf(template, fnName('B'))).toMatchObject({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 600 });
  });

  test('per-node memory, timeout and environment', () => {
    const { template } = synthWorkflow({
      definition: chain({ a: { memorySize: 1024, timeoutSeconds: 120, environment: { MODE: 'fast' } } }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: fnName('A'),
      MemorySize: 1024,
      Timeout: 120 + FUNCTION_TIMEOUT_MARGIN_SECONDS,
      Environment: { Variables: { MODE: 'fast', UNUM_TABLE: Match.anyValue() } },
    });
  });

  test('customer-managed key, point-in-time recovery, removal policy', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const key = new kms.Key(stack, 'Key');
    new UnumWorkflow(stack, 'Flow', {
      definition: chain(),
      encryptionKey: key,
      pointInTimeRecovery: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Template.fromStack(stack).hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: {
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Key'), 'Arn'] } },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      },
    });
  });

  test('an existing table is used as is', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const table = dynamodb.Table.fromTableName(stack, 'Existing', 'my-table');
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain(), table });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: { UNUM_TABLE: 'my-table' } } });
    expect(workflow.table).toBe(table);
  });

  test('workflows sharing a table: each keys its runs with its own name; two of the same name are refused', () => {
    const app = new App();
    const owner = new Stack(app, STACK_NAME);
    const shared = new dynamodb.Table(owner, 'Shared', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, timeToLiveAttribute: 'ttl' });
    new UnumWorkflow(owner, 'Orders', { definition: chain(), table: shared });
    new UnumWorkflow(owner, 'Refunds', { definition: chain(), table: shared });
    const template = Template.fromStack(owner);
    for (const name of ['Orders', 'Refunds']) {
      template.hasOutput(`${name}WorkflowName`, { Value: name });
      template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: physicalFunctionName(STACK_NAME, name, 'unum-failure'), Environment: { Variables: Match.objectLike({ UNUM_WORKFLOW: name }) } });
    }
    // In another stack of the app, by construct or by literal name: the same table.
    const other = new Stack(app, 'Other');
    expect(() => new UnumWorkflow(other, 'Orders', { definition: chain(), table: shared })).toThrow(
      "Other/Orders: workflow 'Orders': shares its table with Test/Orders, a workflow of the same name; workflows sharing a table need different names (workflowName): their items' keys carry it",
    );
    new UnumWorkflow(other, 'Byname', { definition: chain(), table: dynamodb.Table.fromTableName(other, 'Named', 'my-table'), workflowName: 'Same' });
    expect(() => new UnumWorkflow(other, 'Again', { definition: chain(), table: dynamodb.Table.fromTableName(other, 'NamedAgain', 'my-table'), workflowName: 'Same' })).toThrow(/shares its table with Other\/Byname/);
  });

  test('source maps: on by default, every function told to use them; off with bundling.sourceMap false', () => {
    const on = synthWorkflow({ definition: chain() }).template;
    on.allResourcesProperties('AWS::Lambda::Function', { Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } } });
    const off = synthWorkflow({ definition: chain(), bundling: { sourceMap: false } }).template;
    off.allResourcesProperties('AWS::Lambda::Function', { Environment: { Variables: { NODE_OPTIONS: Match.absent() } } });
  });

  test('failure forwarding to a queue or a topic', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const queue = new sqs.Queue(stack, 'Dlq', { enforceSSL: true });
    const topic = new sns.Topic(stack, 'Alarms');
    const viaQueue = new UnumWorkflow(stack, 'Flow', { definition: chain(), onFailure: queue });
    const viaTopic = new UnumWorkflow(stack, 'Other', { definition: chain(), onFailure: topic });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-unum-failure`,
      Environment: {
        Variables: {
          UNUM_FAILURE_QUEUE_URL: { Ref: Match.stringLikeRegexp('^Dlq') },
          UNUM_ENTRY_NODE: 'A',
        },
      },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Other-unum-failure`,
      Environment: { Variables: { UNUM_FAILURE_TOPIC_ARN: { Ref: Match.stringLikeRegexp('^Alarms') } } },
    });
    const recorderRole = (fn: UnumWorkflow): string =>
      stack.resolve(((fn.failureRecorder.role as iam.Role).node.defaultChild as iam.CfnRole).logicalId) as string;
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: recorderRole(viaQueue) }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Dlq'), 'Arn'] } })]) },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: recorderRole(viaTopic) }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'sns:Publish' })]) },
    });
  });

  test('grantStart invokes the entry function\'s live alias only; grantRead reads the workflow\'s items but its envelope key, by LeadingKeys, and its runs in the index', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain() });
    const role = new iam.Role(stack, 'Client', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantStart(role);
    workflow.grantRead(role);
    const template = Template.fromStack(stack);
    const entryArn = liveArnOf(workflow.entryFunction);
    const tableArn = stack.resolve((workflow.table as dynamodb.Table).tableArn);
    expect(roleStatements(template, Match.stringLikeRegexp('^Client'))).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: entryArn },
      {
        Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
        Effect: 'Allow',
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': workflowKeyPatterns('Flow', [...RUN_ITEM_KINDS, 'deployment']) } },
      },
      { Action: 'dynamodb:Query', Effect: 'Allow', Resource: { 'Fn::Join': ['', [tableArn, '/index/runs']] }, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['Flow'] } } },
    ]);
  });

  test('no grant to a client reads the envelope key item: every statement on the table is bounded by LeadingKeys patterns that none of matches it, and none scans', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain() });
    // grantTaskResponse has no table access (and needs a callback Task).
    const grants = ['grantStart', 'grantStop', 'grantRead', 'grantListRuns', 'grantRecover', 'grantRedrive'] as const;
    for (const grant of grants) workflow[grant](new iam.Role(stack, grant, { assumedBy: new iam.AccountRootPrincipal() }));
    const template = Template.fromStack(stack);
    const tableArn = JSON.stringify(stack.resolve((workflow.table as dynamodb.Table).tableArn));
    // IAM's StringLike: `*` is any characters, `?` one.
    const matches = (pattern: string, key: string): boolean => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(key);
    const keyItem = envelopeKeyKey('Flow');
    for (const grant of grants) {
      const onTable = roleStatements(template, Match.stringLikeRegexp(`^${grant}`)).filter((st) => JSON.stringify(st.Resource).includes(tableArn.slice(1, -1)));
      for (const st of onTable) {
        const actions = ([] as string[]).concat(st.Action as string | string[]);
        expect({ grant, scans: actions.includes('dynamodb:Scan') }).toEqual({ grant, scans: false });
        const patterns = (st.Condition as Record<string, Record<string, string[]>> | undefined)?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        expect({ grant, actions, bounded: Array.isArray(patterns) }).toEqual({ grant, actions, bounded: true });
        expect({ grant, reaching: (patterns as string[]).filter((p) => matches(p, keyItem)) }).toEqual({ grant, reaching: [] });
      }
    }
  });

  test('grantRecover: receive and delete dead letters, read run records, invoke the workflow functions; nothing else', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain() });
    const role = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantRecover(role);
    const template = Template.fromStack(stack);
    expect(roleStatements(template, Match.stringLikeRegexp('^Operator'))).toEqual([
      { Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage'], Effect: 'Allow', Resource: stack.resolve(workflow.deadLetterQueue.queueArn) },
      { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: stack.resolve((workflow.table as dynamodb.Table).tableArn), Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*'] } } },
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: Object.values(workflow.functions).map(anyAliasOf) },
    ]);
  });

  test('grantRedrive: invoke the run-control function\'s redrive alias, read this workflow\'s run records; nothing else (no write, no node\'s function)', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain() });
    const role = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantRedrive(role);
    expect(roleStatements(Template.fromStack(stack), Match.stringLikeRegexp('^Operator'))).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::Join': ['', [stack.resolve(workflow.runControlFunction.functionArn), ':redrive']] } },
      { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: stack.resolve((workflow.table as dynamodb.Table).tableArn), Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*'] } } },
    ]);
  });

  test('the table has the sparse runs index, keys only; grantListRuns is a Query of this workflow\'s partition of that index and BatchGetItem of its run records; grantRead covers both', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain() });
    const lister = new iam.Role(stack, 'Lister', { assumedBy: new iam.AccountRootPrincipal() });
    const reader = new iam.Role(stack, 'Reader', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantListRuns(lister);
    workflow.grantRead(reader);
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayWith([{ AttributeName: 'runs', AttributeType: 'S' }, { AttributeName: 'runsSk', AttributeType: 'S' }]),
      GlobalSecondaryIndexes: [{
        IndexName: 'runs',
        KeySchema: [{ AttributeName: 'runs', KeyType: 'HASH' }, { AttributeName: 'runsSk', KeyType: 'RANGE' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      }],
    });
    const tableArn = stack.resolve((workflow.table as dynamodb.Table).tableArn);
    expect(roleStatements(template, Match.stringLikeRegexp('^Lister'))).toEqual([
      { Action: 'dynamodb:Query', Effect: 'Allow', Resource: { 'Fn::Join': ['', [tableArn, '/index/runs']] }, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['Flow'] } } },
      { Action: 'dynamodb:BatchGetItem', Effect: 'Allow', Resource: tableArn, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*'] } } },
    ]);
    const read = roleStatements(template, Match.stringLikeRegexp('^Reader'));
    expect(read.map((st) => [st.Action, st.Resource])).toEqual([
      [['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'], tableArn],
      ['dynamodb:Query', { 'Fn::Join': ['', [tableArn, '/index/runs']] }],
    ]);
  });

  test('grantListRuns of a table encrypted with a customer key also grants decrypting with it', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const encryptionKey = new kms.Key(stack, 'Key');
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain(), encryptionKey });
    const lister = new iam.Role(stack, 'Lister', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantListRuns(lister);
    const actions = roleStatements(Template.fromStack(stack), Match.stringLikeRegexp('^Lister')).map((st) => st.Action);
    expect(actions).toEqual(['dynamodb:Query', 'dynamodb:BatchGetItem', 'kms:Decrypt']);
  });

  test('grantStart of a workflow that starts at a loop target: its start node only, never a function of the loop', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: loop() });
    const role = new iam.Role(stack, 'Client', { assumedBy: new iam.AccountRootPrincipal() });
    workflow.grantStart(role);
    expect(workflow.entryFunction).toBe(workflow.functions['A.Start']);
    const template = Template.fromStack(stack);
    const grants = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: Match.stringLikeRegexp('^Client') }] } });
    const statements = Object.values(grants).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: liveArnOf(workflow.entryFunction) }]);
  });

  test('long names are shortened with a hash to 64 characters', () => {
    const long = 'AVeryLongWorkflowNameThatKeepsGoingAndGoingOnAndOnForeverAndEver';
    const { template } = synthWorkflow({ definition: chain(), workflowName: long });
    const names = Object.values(template.findResources('AWS::Lambda::Function')).map((r) => r.Properties.FunctionName as string);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^[A-Za-z0-9_-]+-[0-9a-f]{8}$/);
    }
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('compiler warnings', () => {
  test('become synth warnings on the construct', () => {
    const a = new Task('A', { entry: HANDLERS, handler: 'first' });
    const pick = new Choice('Pick').when(Condition.numberGreaterThan('$.n', 1), new Task('B', { entry: HANDLERS, handler: 'second' }));
    const { stack, workflow } = synthWorkflow({ definition: Definition.from(a.next(pick)) });
    expect(workflow.compiled.warnings.length).toBeGreaterThan(0);
    Annotations.fromStack(stack).hasWarning('/Test/Flow', Match.stringLikeRegexp('Pick'));
  });
});

describe('implicit nodes', () => {
  test('a Parallel that starts and ends the workflow gets pass-node functions for its origin and join', () => {
    const both = new Parallel('Both').branch(
      new Task('B', { entry: HANDLERS, handler: 'second' }),
      new Task('C', { entry: HANDLERS, handler: 'third' }),
    );
    const { workflow, template } = synthWorkflow({ definition: Definition.from(both) });
    const implicit = Object.entries(workflow.compiled.nodes).filter(([, n]) => n.implicit);
    expect(implicit.length).toBe(2);
    for (const [, n] of implicit) expect(n.fn.entry).toBeUndefined();
    expect(workflow.compiled.nodes[workflow.compiled.entry].implicit).toBe(true);
    template.resourceCountIs('AWS::Lambda::Function', Object.keys(workflow.compiled.nodes).length + 3);
    expect(workflow.entryFunction).toBe(workflow.functions[workflow.compiled.entry]);
  });
});

describe('validation errors name the construct path, workflow and node', () => {
  test('checkpoint retention shorter than max event age + timeout', () => {
    expect(() => synthWorkflow({ definition: chain({ b: { timeoutSeconds: 60 } }), checkpointRetention: Duration.hours(6) })).toThrow(
      "Test/Flow: workflow 'Flow', node 'A': checkpointRetention 21600s is shorter than maxEventAge 21600s + timeout 40s = 21640s",
    );
    expect(() =>
      synthWorkflow({ definition: chain({ c: { timeoutSeconds: 300 } }), checkpointRetention: Duration.seconds(1209), maxEventAge: Duration.minutes(15) }),
    ).toThrow("node 'C': checkpointRetention 1209s is shorter than maxEventAge 900s + timeout 310s = 1210s");
  });

  test('run retention shorter than checkpoint retention; equal is accepted', () => {
    expect(() => synthWorkflow({ definition: chain(), runRetention: Duration.seconds(3) })).toThrow(
      "Test/Flow: workflow 'Flow': runRetention 3s is shorter than checkpointRetention 604800s",
    );
    expect(() => synthWorkflow({ definition: chain(), runRetention: Duration.days(7), checkpointRetention: Duration.days(7) })).not.toThrow();
  });

  test('checkpoint retention shorter than the longest max event age + the longest timeout of different nodes', () => {
    // Each node alone fits in 1000 s (900 + 60 and 40 + 900, function timeouts), but C's input may wait 900 s after B's function ran 900 s.
    const definition = chain({ b: { timeoutSeconds: 890, maxEventAgeSeconds: 60 }, c: { timeoutSeconds: 30, maxEventAgeSeconds: 900 } });
    expect(() => synthWorkflow({ definition, checkpointRetention: Duration.seconds(1000), maxEventAge: Duration.seconds(60) })).toThrow(
      "Test/Flow: workflow 'Flow': checkpointRetention 1000s is shorter than the longest handoff between functions, 1800s",
    );
  });

  test('a map launch width below 2 or fractional fails at synth, naming the workflow and the prop', () => {
    expect(() => synthWorkflow({ definition: fanOut(), mapLaunchWidth: 1 })).toThrow(/Test\/Flow: workflow 'Flow'.*field 'options\.mapLaunchWidth'.*1 is not an integer in 2-262144/);
    expect(() => synthWorkflow({ definition: fanOut(), mapLaunchWidth: 2.5 })).toThrow(/options\.mapLaunchWidth/);
    expect(() => synthWorkflow({ definition: fanOut(), mapLaunchWidth: 2 })).not.toThrow();
  });

  test('retry attempts out of range', () => {
    expect(() => synthWorkflow({ definition: chain(), retryAttempts: 3 })).toThrow(
      "Test/Flow: workflow 'Flow', node 'A': retryAttempts must be an integer from 0 to 2",
    );
    expect(() => synthWorkflow({ definition: chain(), maxEventAge: Duration.seconds(30) })).toThrow(/node 'A': maxEventAge must be/);
  });

  test('missing handler file', () => {
    const definition = Definition.from(new Task('Lost', { entry: path.join(__dirname, 'fixtures', 'nope.ts'), handler: 'first' }));
    expect(() => synthWorkflow({ definition })).toThrow(/Test\/Flow: workflow 'Flow', node 'Lost': handler file not found: .*nope\.ts/);
  });

  test('invalid definition (from the compiler)', () => {
    const a = new Task('Same', { entry: HANDLERS, handler: 'first' });
    const b = new Task('Same', { entry: HANDLERS, handler: 'second' });
    expect(() => synthWorkflow({ definition: Definition.from(a.next(b)) })).toThrow(
      expect.objectContaining({ name: 'UnumWorkflowError', message: expect.stringMatching(/^Test\/Flow: workflow 'Flow', node 'Same': invalid definition \(field '[^']+'\): /) }),
    );
  });

  test('table options with an existing table', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const table = dynamodb.Table.fromTableName(stack, 'Existing', 'my-table');
    expect(() => new UnumWorkflow(stack, 'Flow', { definition: chain(), table, pointInTimeRecovery: true })).toThrow(UnumWorkflowError);
  });
});

describe('cloud assembly metadata for the local engine', () => {
  test('unum:workflow lists nodes with function names and logical ids', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    new UnumWorkflow(stack, 'Flow', { definition: fanOut() });
    const assembly = app.synth();
    const artifact = assembly.getStackByName(STACK_NAME);
    const entries = artifact.findMetadataByType(WORKFLOW_METADATA_TYPE);
    expect(entries).toHaveLength(1);
    expect(entries[0].path).toBe('/Test/Flow');
    const data = entries[0].data as unknown as WorkflowMetadata;
    const template = artifact.template as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
    expect(data.workflow).toBe('Flow');
    expect(data.entry).toBe('A');
    expect(template.Resources[data.tableLogicalId as string].Type).toBe('AWS::DynamoDB::Table');
    expect(data.tableName).toEqual({ Ref: data.tableLogicalId });
    for (const [node, info] of Object.entries(data.nodes)) {
      expect(info.functionName).toBe(fnName(node));
      expect(template.Resources[info.logicalId].Properties.FunctionName).toBe(info.functionName);
    }
    expect(data.nodes.A.successors).toEqual(['B', 'C']);
    expect(template.Resources[data.failureRecorder.logicalId].Properties.FunctionName).toBe(`${STACK_NAME}-Flow-unum-failure`);
    expect(template.Resources[data.deadLetterQueueLogicalId as string].Type).toBe('AWS::SQS::Queue');
  });
});

describe('run history', () => {
  /** Every node's `unum-ir.json` as staged in the cloud assembly, by node. */
  function stagedIr(app: App, workflow: UnumWorkflow): Record<string, { settings: Record<string, unknown> }> {
    const assembly = app.synth();
    const template = assembly.getStackByName(STACK_NAME).template as { Resources: Record<string, { Properties: { Code?: { S3Key?: string } } }> };
    const stack = Stack.of(workflow);
    return Object.fromEntries(
      Object.entries(workflow.functions).map(([node, fn]) => {
        const logicalId = stack.resolve((fn.node.defaultChild as lambda.CfnFunction).logicalId) as string;
        const hash = String(template.Resources[logicalId].Properties.Code?.S3Key).replace(/\.zip$/, '');
        return [node, JSON.parse(fs.readFileSync(path.join(assembly.directory, `asset.${hash}`, 'unum-ir.json'), 'utf8'))];
      }),
    );
  }

  test('history: true reaches every IR and tells the failure recorder', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: fanOut(), history: true, runRetention: Duration.days(10) });
    for (const n of Object.values(workflow.compiled.nodes)) expect(n.ir.settings).toMatchObject({ history: true, runRetentionSeconds: 864000 });
    const irs = stagedIr(app, workflow);
    expect(Object.keys(irs).sort()).toEqual(Object.keys(workflow.compiled.nodes).sort());
    for (const ir of Object.values(irs)) expect(ir.settings.history).toBe(true);
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-unum-failure`,
      Environment: { Variables: { UNUM_ENTRY_NODE: 'A', UNUM_RUN_RETENTION: '864000', UNUM_HISTORY: 'true' } },
    });
    // The recorder appends with UpdateItem (counter) and PutItem (entry) on the table.
    const recorderRole = stack.resolve(((workflow.failureRecorder.role as iam.Role).node.defaultChild as iam.CfnRole).logicalId) as string;
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: recorderRole }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['dynamodb:PutItem', 'dynamodb:UpdateItem']) })]) },
    });
  });

  test('off by default: no history setting in the IR, no UNUM_HISTORY', () => {
    const app = new App();
    const stack = new Stack(app, STACK_NAME);
    const workflow = new UnumWorkflow(stack, 'Flow', { definition: fanOut() });
    for (const n of Object.values(workflow.compiled.nodes)) expect(n.ir.settings).not.toHaveProperty('history');
    for (const ir of Object.values(stagedIr(app, workflow))) expect(ir.settings).not.toHaveProperty('history');
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-unum-failure`,
      Environment: { Variables: { UNUM_ENTRY_NODE: 'A', UNUM_HISTORY: Match.absent() } },
    });
  });
});
