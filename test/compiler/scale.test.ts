import { benchCompile } from '../../bench/compile';
import { compileWorkflow } from '../../lib/compiler';
import { Chain, Choice, Condition, MapState, Parallel, Pass, Succeed, type IChainable } from '../../lib/definition';
import { ENVELOPE_BOUNDS } from '../../runtime/contract/ir';
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

  it('10,000 nested Maps: walked without deep recursion, refused past the envelope\'s nesting bound', () => {
    const nested = (depth: number): IChainable => {
      let inner: IChainable = task('Leaf');
      for (let i = 0; i < depth; i++) inner = new MapState(`M${i}`).itemProcessor(inner);
      return inner;
    };
    expect(compileWorkflow('Deep', nested(ENVELOPE_BOUNDS.depth)).entry).toBe(`M${ENVELOPE_BOUNDS.depth - 1}.Origin`);
    // The outermost Map is M9999: the one 33 levels deep is M9967.
    expect(() => compileWorkflow('Deep', nested(10_000))).toThrow(
      `Workflow 'Deep', node 'M${10_000 - ENVELOPE_BOUNDS.depth - 1}', field 'id': the Map is nested ${ENVELOPE_BOUNDS.depth + 1} levels deep in Maps and Parallels; at most ${ENVELOPE_BOUNDS.depth} are supported`,
    );
  });
});
