import { benchCompile } from '../../bench/compile';
import { compileWorkflow } from '../../lib/compiler';
import { Chain, Choice, Condition, MapState, Parallel, Pass, Succeed, type IChainable } from '../../lib/definition';
import { task } from './helpers';

// Not timed (timing belongs to `npm run bench`): these prove that large
// definitions compile without deep recursion.
describe('large definitions', () => {
  it('a 10,000-state chain', () => {
    const result = benchCompile(10_000);
    expect(result).toMatchObject({ states: 10_000, nodes: 10_000 });
    expect(result.compileMs).toBeGreaterThan(0);
  });

  it('10,000 consecutive Maps, Parallels and loops', () => {
    const steps: IChainable[] = [];
    for (let i = 0; i < 2500; i++) {
      steps.push(new MapState(`M${i}`).itemProcessor(task(`I${i}`)));
      steps.push(new Parallel(`P${i}`).branch(new Pass(`B${i}`)));
      const body = task(`L${i}`);
      steps.push(body.next(new Choice(`C${i}`).when(Condition.isPresent('$.again'), body).afterwards({ includeOtherwise: true })));
    }
    steps.push(new Succeed('Done'));
    const compiled = compileWorkflow('Big', Chain.sequence(...steps));
    // Per round: item, map join (the next Parallel's origin), branch, loop body (the Parallel's join); plus the first origin.
    expect(Object.keys(compiled.nodes)).toHaveLength(1 + 2500 * 4);
  });

  it('10,000 nested Maps', () => {
    let inner: IChainable = task('Leaf');
    for (let i = 0; i < 10_000; i++) inner = new MapState(`M${i}`).itemProcessor(inner);
    const compiled = compileWorkflow('Deep', inner);
    expect(compiled.entry).toBe('M9999.Origin');
  });
});
