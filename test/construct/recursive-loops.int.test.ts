/**
 * `recursiveLoop: Allow` exactly on the functions on a cycle of invocations
 * (lib/compiler/cycles.ts): a loop's, a fold's, a Map's item
 * processor start (its launch tree re-invokes it), a bounded Map's slot
 * chain; never on a function before or after them, nor on the failure
 * recorder. Loops synthesize without dependency cycles.
 */
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { Template } from 'aws-cdk-lib/assertions';
import { Definition, Map as MapState, Task } from '../../lib/definition';
import { physicalFunctionName } from '../../lib/construct/function-names';
import { fold, HANDLERS, loop } from './fixtures/workflows';
import { deploymentAliasArn, invokeResources, STACK_NAME, statementsOf, synthWorkflow } from './helpers';

const fnName = (node: string): string => physicalFunctionName(STACK_NAME, 'Flow', node);

/** Names of the functions that set RecursiveLoop Allow (no other value is ever set), sorted. */
function allowed(template: Template): string[] {
  const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Array<{ Properties: { FunctionName: string; RecursiveLoop?: string } }>;
  for (const fn of functions) expect([undefined, 'Allow']).toContain(fn.Properties.RecursiveLoop);
  return functions.filter((fn) => fn.Properties.RecursiveLoop === 'Allow').map((fn) => fn.Properties.FunctionName).sort();
}

const task = (id: string): Task => new Task(id, { entry: HANDLERS, handler: 'first' });

describe('loops', () => {
  const { stack, workflow, template } = synthWorkflow({ definition: loop() });

  test('synthesizes; the functions of the loop allow recursion, the one after it does not; they invoke each other by name', () => {
    expect(allowed(template)).toEqual([fnName('A'), fnName('B')].sort());
    expect(invokeResources(statementsOf(template, workflow, 'B'))).toEqual(
      expect.arrayContaining([deploymentAliasArn(fnName('A')), deploymentAliasArn(fnName('Done'))]),
    );
  });

  test('no Ref/GetAtt between the functions of the cycle, and no dependency cycle at all', () => {
    const resources = (template.toJSON() as { Resources: Record<string, unknown> }).Resources;
    const graph = new Map(Object.entries(resources).map(([id, r]) => [id, referencesOf(r)]));
    expect(findCycle(graph)).toBeUndefined();
    const functionIds = Object.values(workflow.functions).map((fn) => stack.resolve((fn.node.defaultChild as iam.CfnRole).logicalId) as string);
    for (const fnId of functionIds) {
      const reachable = reachableFrom(graph, fnId);
      for (const other of functionIds) if (other !== fnId) expect(reachable).not.toContain(other);
    }
  });
});

/** Logical ids a resource refers to (Ref, Fn::GetAtt, DependsOn). */
function referencesOf(resource: unknown): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'Ref' && typeof x === 'string' && !x.startsWith('AWS::')) found.add(x);
      else if (k === 'Fn::GetAtt' && Array.isArray(x)) found.add(String(x[0]));
      else if (k === 'DependsOn') ([] as string[]).concat(x as string).forEach((d) => found.add(d));
      else visit(x);
    }
  };
  visit(resource);
  return [...found];
}

function reachableFrom(graph: Map<string, string[]>, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(start) ?? [])];
  while (todo.length > 0) {
    const id = todo.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(graph.get(id) ?? []));
  }
  return seen;
}

function findCycle(graph: Map<string, string[]>): string | undefined {
  for (const id of graph.keys()) if (reachableFrom(graph, id).has(id)) return id;
  return undefined;
}

describe('Maps and folds', () => {
  test('a loop-free workflow with a Map: only the item processor start, whose launchers launch further launchers', () => {
    const each = new MapState('Each', { itemsPath: '$.items' }).itemProcessor(task('Resize').next(task('Store')));
    const { workflow, template } = synthWorkflow({ definition: Definition.from(task('Items').next(each).next(task('After'))) });
    expect(workflow.compiled.nodes.Resize.successors).toContain('Resize');
    expect(Object.keys(workflow.compiled.nodes).length).toBeGreaterThan(3);
    expect(allowed(template)).toEqual([fnName('Resize')]);
  });

  test('a bounded Map: the slot chain (each item\'s tail launches the next item) is a cycle through the item processor', () => {
    const each = new MapState('Each', { itemsPath: '$.items', maxConcurrency: 2 }).itemProcessor(task('Resize').next(task('Store')));
    const { template } = synthWorkflow({ definition: Definition.from(task('Items').next(each).next(task('After'))) });
    const names = allowed(template);
    expect(names).toEqual(expect.arrayContaining([fnName('Resize'), fnName('Store')]));
    expect(names).not.toContain(fnName('Items'));
    expect(names).not.toContain(fnName('After'));
  });

  test('a fold invokes itself: recursion allowed, its own ARN in its policy; the function before the Map is not', () => {
    const { workflow, template } = synthWorkflow({ definition: fold() });
    expect(workflow.compiled.nodes.Sum.successors).toContain('Sum');
    expect(allowed(template)).toEqual([fnName('A'), fnName('Sum')].sort());
    expect(invokeResources(statementsOf(template, workflow, 'Sum'))).toContainEqual(deploymentAliasArn(fnName('Sum')));
  });

  test('a chain: no function allows recursion', () => {
    const { template } = synthWorkflow({ definition: Definition.from(task('A').next(task('B'))) });
    expect(allowed(template)).toEqual([]);
  });
});
