/**
 * The failure recorder's spec (`unum-recorder.json`): the states of nodes
 * named otherwise, and for nodes inside a Parallel/Map with rules the join
 * their failure goes to, whose function the recorder's role may invoke.
 */
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Stack } from 'aws-cdk-lib';
import { compileWorkflow } from '../../lib/compiler';
import { recorderSpec } from '../../lib/construct/recorder-spec';
import { Definition, MapState, Parallel, Pass, Task } from '../../lib/definition';
import { HANDLERS } from './fixtures/workflows';
import { physicalFunctionName } from '../../lib/construct/function-names';
import { aliasArn, STACK_NAME, synthWorkflow } from './helpers';

const task = (name: string): Task => new Task(name, { entry: HANDLERS, handler: 'first' });

const definition = (): Definition =>
  Definition.from(
    task('Load')
      .next(new Parallel('Check').branch(task('A'), new MapState('Each', { itemsPath: '$.items' }).itemProcessor(task('Item'))).addCatch(new Pass('Caught')))
      .next(new MapState('Plain', { itemsPath: '$.items', resultPath: '$.out' }).itemProcessor(task('Free'))),
  );

test('names the states of implicit nodes and the state joins of nodes inside a Parallel/Map with rules, with their functions', () => {
  const compiled = compileWorkflow('Flow', definition());
  const names = new Map(Object.keys(compiled.nodes).map((n) => [n, `fn-${n}`]));
  const spec = recorderSpec(compiled.nodes, names);
  // Item fails its own Map (no rules), whose join fails Check: each failure goes to the innermost state around it.
  expect(spec.nodes.A).toEqual({ stateJoin: 'Check.Join' });
  expect(spec.nodes.Item).toEqual({ stateJoin: 'Each.Join' });
  expect(spec.nodes['Check.Join']).toEqual({ state: 'Check' });
  expect(spec.nodes['Plain.Join']).toEqual({ state: 'Plain' });
  // Outside any state with rules: the run fails, naming the node, which is its state.
  expect(spec.nodes.Free).toBeUndefined();
  expect(spec.nodes.Load).toBeUndefined();
  expect(spec.functionNames).toEqual(Object.fromEntries([...new Set(Object.values(spec.nodes).flatMap((n) => (n.stateJoin ? [n.stateJoin] : [])))].map((j) => [j, `fn-${j}`])));
  expect(Object.keys(spec.functionNames).sort()).toEqual(['Check.Join', 'Each.Join']);
});

test('the recorder\'s role may invoke exactly those joins', () => {
  const { workflow, template } = synthWorkflow({ definition: definition() });
  const role = workflow.failureRecorder.role as iam.Role;
  const roleId = Stack.of(workflow).resolve((role.node.defaultChild as iam.CfnRole).logicalId) as string;
  const statements = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })).flatMap(
    (p) => p.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>,
  );
  const invoke = statements.filter((s) => s.Action === 'lambda:InvokeFunction').flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
  const arns = (list: unknown[]) => list.map((a) => JSON.stringify(a)).sort();
  expect(arns(invoke)).toEqual(arns(['Check.Join', 'Each.Join'].map((n) => aliasArn(physicalFunctionName(STACK_NAME, 'Flow', n), workflow.deployment))));
});
