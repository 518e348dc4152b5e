import { examples } from '../types/dsl-examples';
import { compile, instructions, INCR, scalar } from './helpers';

describe('the examples of docs/writing-workflows.md (docs/snippets/workflows)', () => {
  it.each(Object.keys(examples))('%s compiles', (name) => {
    expect(Object.keys(compile(examples[name]()).nodes).length).toBeGreaterThan(0);
  });

  it('the loop example leaves the loop to Collect and re-invokes Poll one iteration later', () => {
    const c = compile(examples.loop());
    expect(instructions(c, 'Poll')).toEqual([{ op: 'choice', state: 'Again', rules: [{ when: { kind: 'compare', type: 'boolean', op: 'eq', path: '$.done', value: false }, then: [INCR, scalar('Poll')] }], otherwise: [scalar('Collect')] }]);
  });

  it('the choice example continues every arm with Store', () => {
    const c = compile(examples.choice());
    for (const arm of ['Reject', 'Png', 'Other']) expect(instructions(c, arm)).toEqual([scalar('Store')]);
  });
});
