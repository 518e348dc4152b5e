/**
 * lib/assembly reads a synthesized app the way `cdk synth` writes it: stacks
 * from the manifest (nested stage assemblies included), workflows from their
 * `unum:workflow` metadata, each node's IR from beside its bundle.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CloudAssemblyError, noWorkflowError, readAssembly, workflowsInAssembly, type WorkflowMetadata } from '../../lib/assembly';

let dir: string;

function write(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value));
}

/** A workflow of two nodes, `One` and `Two`, in `stack`; `bundled` writes each node's IR beside its code. */
function workflowStack(prefix: string, stack: string, workflow: string, bundled: boolean): { template: object; metadata: WorkflowMetadata } {
  const resources: Record<string, object> = {};
  const nodes: Record<string, WorkflowMetadata['nodes'][string]> = {};
  for (const node of ['One', 'Two']) {
    const asset = `asset.${stack}${node}`;
    fs.mkdirSync(path.join(dir, prefix, asset), { recursive: true });
    if (bundled) write(path.join(prefix, asset, 'unum-ir.json'), { workflow, node, entry: node === 'One' });
    resources[`${node}Fn`] = { Type: 'AWS::Lambda::Function', Properties: { FunctionName: `${stack}-${workflow}-${node}` }, Metadata: { 'aws:asset:path': asset } };
    nodes[node] = { functionName: `${stack}-${workflow}-${node}`, logicalId: `${node}Fn`, successors: node === 'One' ? ['Two'] : [], implicit: false };
  }
  resources.Table = { Type: 'AWS::DynamoDB::Table', Properties: {} };
  return {
    template: { Resources: resources },
    metadata: {
      version: 2, workflow, deployment: 'd0123456789abcdef0123', entry: 'One', nodes, tableLogicalId: 'Table', tableName: { Ref: 'Table' },
      failureRecorder: { functionName: `${stack}-${workflow}-unum-failure`, logicalId: 'Recorder' },
    },
  };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-assembly-'));
  // A stack with its metadata in a side file (aws-cdk-lib 2.276), and a stage's nested assembly whose stack was not bundled.
  const top = workflowStack('', 'Main', 'Flow', true);
  write('Main.template.json', top.template);
  write('Main.metadata.json', { '/Main/Flows/Flow': [{ type: 'aws:cdk:logicalId', data: 'x' }, { type: 'unum:workflow', data: top.metadata }] });
  const staged = workflowStack('assembly-Stage', 'Staged', 'Later', false);
  write('assembly-Stage/Staged.template.json', staged.template);
  write('assembly-Stage/manifest.json', {
    artifacts: { Staged: { type: 'aws:cloudformation:stack', metadata: { '/Staged/Later': [{ type: 'unum:workflow', data: staged.metadata }] }, properties: { templateFile: 'Staged.template.json' } } },
  });
  write('manifest.json', {
    artifacts: {
      Main: { type: 'aws:cloudformation:stack', additionalMetadataFile: 'Main.metadata.json', properties: { templateFile: 'Main.template.json' } },
      Stage: { type: 'cdk:cloud-assembly', properties: { directoryName: 'assembly-Stage' } },
    },
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('finds every workflow from its metadata, nested assemblies included', () => {
  expect(workflowsInAssembly(dir)).toEqual([
    { stack: 'Main', workflow: 'Flow', constructPath: 'Flows/Flow', deployment: 'd0123456789abcdef0123', entryFunction: 'Main-Flow-One', table: { logicalId: 'Table' } },
    { stack: 'Staged', workflow: 'Later', constructPath: 'Later', deployment: 'd0123456789abcdef0123', entryFunction: 'Staged-Later-One', table: { logicalId: 'Table' } },
  ]);
});

test("maps each node to its function's bundle and IR; a workflow without IR names its stack as unbundled", () => {
  const app = readAssembly(dir);
  expect(app.dir).toBe(path.resolve(dir));
  expect([...app.workflows.keys()]).toEqual(['Flow']);
  const flow = app.workflows.get('Flow');
  expect(flow?.stack).toBe('Main');
  expect(flow?.nodes.Two).toMatchObject({ logicalId: 'TwoFn', assetDir: path.join(path.resolve(dir), 'asset.MainTwo'), ir: { workflow: 'Flow', node: 'Two' } });
  expect(app.unbundledStacks).toEqual(['Staged']);
  expect(app.stacks.map((s) => [s.name, s.functions.length])).toEqual([['Main', 2], ['Staged', 2]]);
  expect(noWorkflowError(app, 'Later')).toMatch(/^no workflow 'Later' in .* \(have: Flow\); stack\(s\) Staged were synthesized without their assets/);
});

test('two bundled workflows of one name are an error naming both stacks', () => {
  const again = workflowStack('assembly-Stage', 'Staged', 'Flow', true);
  write('assembly-Stage/manifest.json', {
    artifacts: { Staged: { type: 'aws:cloudformation:stack', metadata: { '/Staged/Flow': [{ type: 'unum:workflow', data: again.metadata }] }, properties: { templateFile: 'Staged.template.json' } } },
  });
  write('assembly-Stage/Staged.template.json', again.template);
  expect(() => readAssembly(dir)).toThrow(CloudAssemblyError);
  expect(() => readAssembly(dir)).toThrow(/workflow 'Flow' is in more than one stack of .* \(Main, Staged\)/);
});

test('a directory without manifest.json is not a cloud assembly', () => {
  expect(() => readAssembly(path.join(dir, 'missing'))).toThrow(/missing is not a cloud assembly \(no manifest.json\): run 'cdk synth' first/);
});
