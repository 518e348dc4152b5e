import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UnumClient } from '../../lib/client';
import { findAssemblyWorkflow, locationFromOutputs, workflowsInAssembly } from '../../lib/client/stack';

/** Outputs as `cdk deploy --outputs-file` writes them for the example stack (one stack). */
const outputs = {
  TextPipelineEntryFunctionName: 'UnumExamples-TextPipeline-Normalize',
  TextPipelineEntryFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:UnumExamples-TextPipeline-Normalize',
  TextPipelineTableName: 'UnumExamples-TextPipelineTable28CEC0EB-1ABC',
  TextPipelineWorkflowName: 'TextPipeline',
  CollatzEntryFunctionName: 'UnumExamples-Collatz-Step',
  CollatzTableName: 'UnumExamples-CollatzTable60E6786E-2DEF',
  CollatzWorkflowName: 'Collatz',
};

describe('stack outputs', () => {
  test('finds a workflow by its construct id, case-insensitively', () => {
    expect(locationFromOutputs(outputs, 'collatz')).toEqual({ entryFunction: 'UnumExamples-Collatz-Step', table: 'UnumExamples-CollatzTable60E6786E-2DEF', workflow: 'Collatz' });
    expect(UnumClient.fromStackOutputs(outputs, 'TextPipeline').tableName).toBe('UnumExamples-TextPipelineTable28CEC0EB-1ABC');
  });

  test('a single workflow needs no name; several do; unknown names list the known ones', () => {
    expect(locationFromOutputs({ AEntryFunctionName: 'f', ATableName: 't', AWorkflowName: 'w' })).toEqual({ entryFunction: 'f', table: 't', workflow: 'w' });
    // The keys of run records carry the workflow name: outputs without it are not enough.
    expect(() => locationFromOutputs({ AEntryFunctionName: 'f', ATableName: 't' })).toThrow('stack outputs have AEntryFunctionName but no AWorkflowName');
    expect(() => locationFromOutputs(outputs)).toThrow('stack outputs have several workflows: name one (have: TextPipeline, Collatz)');
    expect(() => locationFromOutputs(outputs, 'Nope')).toThrow("no workflow 'Nope' (have: TextPipeline, Collatz)");
    expect(() => locationFromOutputs({})).toThrow('stack outputs have no unum workflow');
  });

  test('the run-control function, when the outputs name it (a stack deployed before it existed has none)', () => {
    expect(locationFromOutputs({ AEntryFunctionName: 'f', ATableName: 't', AWorkflowName: 'w', ARunControlFunctionName: 'rc' })).toEqual({ entryFunction: 'f', table: 't', workflow: 'w', runControlFunction: 'rc' });
  });
});

describe('cloud assembly', () => {
  let dir: string;
  beforeAll(() => {
    // The shape `cdk synth` writes with aws-cdk-lib 2.276: construct metadata in a side file.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-client-asm-'));
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
      artifacts: {
        UnumExamples: { type: 'aws:cloudformation:stack', additionalMetadataFile: 'UnumExamples.metadata.json', properties: { templateFile: 'UnumExamples.template.json' } },
        Other: { type: 'aws:cloudformation:stack', metadata: {
          '/Other/Pipes/Collatz': [{ type: 'unum:workflow', data: {
            version: 2, workflow: 'Collatz', entry: 'S', deployment: 'd00000000000000000002', nodes: { S: { functionName: 'Other-Collatz-S' } }, tableName: 'fixed-table',
            runControl: { functionName: 'Other-Collatz-unum-run-control', logicalId: 'CollatzRunControlFunction' },
          } }],
        } },
      },
    }));
    fs.writeFileSync(path.join(dir, 'UnumExamples.metadata.json'), JSON.stringify({
      '/UnumExamples/Collatz': [
        { type: 'aws:cdk:logicalId', data: 'x' },
        { type: 'unum:workflow', data: {
          version: 2, workflow: 'Collatz', entry: 'Step', deployment: 'd00000000000000000001',
          nodes: { Step: { functionName: 'UnumExamples-Collatz-Step' }, Finish: { functionName: 'UnumExamples-Collatz-Finish' } },
          tableLogicalId: 'CollatzTable60E6786E', tableName: { Ref: 'CollatzTable60E6786E' },
        } },
      ],
    }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('lists workflows from the unum:workflow metadata', () => {
    expect(workflowsInAssembly(dir)).toEqual([
      { stack: 'UnumExamples', workflow: 'Collatz', constructPath: 'Collatz', entryFunction: 'UnumExamples-Collatz-Step', deployment: 'd00000000000000000001', table: { logicalId: 'CollatzTable60E6786E' } },
      { stack: 'Other', workflow: 'Collatz', constructPath: 'Pipes/Collatz', entryFunction: 'Other-Collatz-S', deployment: 'd00000000000000000002', table: 'fixed-table', runControlFunction: 'Other-Collatz-unum-run-control' },
    ]);
  });

  test('the run-control function reaches the client, deployed or on the local engine; an assembly from before it has none', () => {
    expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'Other' }).runControlFunction).toBe('Other-Collatz-unum-run-control');
    expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'Other', localEngine: { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:2' } }).runControlFunction).toBe('Other-Collatz-unum-run-control');
    expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples', outputs }).runControlFunction).toBeUndefined();
  });

  test('resolves by name and stack; ambiguity and absence are explained', () => {
    expect(findAssemblyWorkflow(dir, 'Collatz', 'Other').entryFunction).toBe('Other-Collatz-S');
    expect(() => findAssemblyWorkflow(dir, 'Collatz')).toThrow(/more than one unum workflow 'Collatz'.*pass --workflow or --stack/);
    expect(() => findAssemblyWorkflow(dir, 'Nope')).toThrow("no unum workflow 'Nope' in");
    expect(() => findAssemblyWorkflow(path.join(dir, 'missing'))).toThrow(/not a cloud assembly/);
  });

  test('a literal table name is enough; a CloudFormation-named table needs the outputs', () => {
    expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'Other' }).tableName).toBe('fixed-table');
    expect(() => UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples' })).toThrow(/named by CloudFormation at deploy/);
    const client = UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples', outputs });
    expect([client.entryFunction, client.tableName, client.workflow]).toEqual(['UnumExamples-Collatz-Step', 'UnumExamples-CollatzTable60E6786E-2DEF', 'Collatz']);
  });

  describe('with the local engine\'s variables exported (as unum local start prints them), as the unum commands', () => {
    const saved = { ...process.env };
    afterEach(() => { process.env = { ...saved }; });

    test('a CloudFormation-named table has the engine\'s name, with its prefix', () => {
      Object.assign(process.env, { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1', AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:1' });
      const client = UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples' });
      expect([client.entryFunction, client.tableName]).toEqual(['UnumExamples-Collatz-Step', 'UnumExamples-CollatzTable60E6786E']);
      process.env.UNUM_LOCAL_TABLE_PREFIX = 'p1-';
      expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples' }).tableName).toBe('p1-UnumExamples-CollatzTable60E6786E');
    });

    test('given outputs or an engine environment win over the variables', () => {
      process.env.AWS_ENDPOINT_URL_DYNAMODB = 'http://127.0.0.1:1';
      expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples', outputs }).tableName).toBe('UnumExamples-CollatzTable60E6786E-2DEF');
      const engine = { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:2', UNUM_LOCAL_TABLE_PREFIX: 'other-' };
      expect(UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples', localEngine: engine }).tableName).toBe('other-UnumExamples-CollatzTable60E6786E');
    });

    test('without them, the message says what to pass for a deployed stack and for the local engine', () => {
      delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      expect(() => UnumClient.fromCloudAssembly(dir, 'Collatz', { stack: 'UnumExamples' })).toThrow(/pass the stack outputs \(options.outputs\), or, for the local engine \(unum local start\), its environment/);
    });
  });
});
