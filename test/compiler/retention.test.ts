/**
 * What the runtime's lease needs from the IR (docs/architecture.md
 * "Retention"): the handoff bound, and on every node inside a branch the join
 * of the innermost fan-out around it.
 */
import { Choice, Condition, MapState, Parallel, Succeed } from '../../lib/definition';
import { compile, ir, task } from './helpers';

test('the handoff is the longest function timeout (handler timeout + margin) plus the longest max event age, on every node', () => {
  const a = task('A', { timeoutSeconds: 890, maxEventAgeSeconds: 60 });
  const b = task('B', { timeoutSeconds: 10 });
  const compiled = compile(a.next(b), { maxEventAgeSeconds: 3600 });
  for (const node of ['A', 'B']) expect(ir(compiled, node).settings.handoffSeconds).toBe(890 + 10 + 3600);
});

test('nodes inside branches name the innermost join and its tails; nodes outside name none', () => {
  const item = task('Item');
  const again = new Choice('Again').when(Condition.isPresent('$.more'), item).otherwise(new Succeed('ItemDone'));
  const inner = new MapState('Inner').itemProcessor(item.next(again));
  const parallel = new Parallel('P').branch(task('B1').next(inner).next(task('AfterInner'))).branch(task('B2'));
  const compiled = compile(task('Start').next(parallel).next(task('Join')));
  expect(ir(compiled, 'Start').enclosingJoin).toBeUndefined();
  expect(ir(compiled, 'Join').enclosingJoin).toBeUndefined();
  const parallelJoin = { node: 'Join', tails: ['AfterInner', 'B2'] };
  for (const node of ['B1', 'B2', 'AfterInner']) expect(ir(compiled, node).enclosingJoin).toEqual(parallelJoin);
  expect(ir(compiled, 'Item').enclosingJoin).toEqual({ node: 'AfterInner', tails: ['Item'] });
});
