/**
 * `choice.next(x)` called from JavaScript (TypeScript rejects it): the
 * compiler's definition error naming the workflow and the Choice, and what to
 * use instead, not a bare TypeError.
 */
import { compileWorkflow, UnumDefinitionError } from '../../lib/compiler';
import { Choice, Condition, Definition, Pass, Task, type Chain, type IChainable } from '../../lib/definition';

/** The Choice as plain JavaScript sees it: its prototype has a `next`, which the TypeScript type leaves out. */
const untyped = (choice: Choice): { next(following: IChainable): Chain } => choice as unknown as { next(following: IChainable): Chain };

const ship = (): Task => new Task('Ship', { entry: '/project/orders.ts' });
const route = (): Choice => new Choice('Route').when(Condition.stringEquals('$.kind', 'gift'), new Pass('Wrap'));

test('TypeScript has no next on a Choice; from JavaScript the call is no TypeError', () => {
  // @ts-expect-error -- a Choice continues through its arms or afterwards()
  expect(() => route().next(ship())).not.toThrow();
});

test('the workflow that uses it is rejected with UnumDefinitionError naming the Choice, .when/.otherwise and .afterwards', () => {
  const choice = route();
  const chain = untyped(choice).next(ship());
  expect(chain.startState).toBe(choice);
  const compile = (): unknown => compileWorkflow('Orders', Definition.from(chain));
  expect(compile).toThrow(UnumDefinitionError);
  expect(compile).toThrow(
    "Workflow 'Orders', node 'Route', field 'next': a Choice has no single next state (tried to continue with 'Ship'); use .when()/.otherwise() or .afterwards().next()",
  );
});

test('chaining on past it goes on from the given state, so the one mistake is the one reported', () => {
  const chain = untyped(route()).next(ship()).next(new Pass('Done'));
  expect(chain.endStates.map((s) => s.id)).toEqual(['Done']);
  expect(() => compileWorkflow('Orders', Definition.from(chain))).toThrow(/^Workflow 'Orders', node 'Route', field 'next': a Choice has no single next state/);
});
