import { Chain, Choice, Condition, Definition, Fail, Fold, Map, MapState, Parallel, Pass, Succeed, Task } from '../../lib/definition';

const ENTRY = '/project/handlers.ts';
const t = (id: string): Task => new Task(id, { entry: ENTRY });

describe('Chain', () => {
  it('next() connects the open ends and keeps the start', () => {
    const a = t('A');
    const b = t('B');
    const chain = a.next(b).next(t('C'));
    expect(chain.startState).toBe(a);
    expect(chain.id).toBe('A');
    expect(a.nextState).toBe(b);
    expect(chain.endStates.map((s) => s.id)).toEqual(['C']);
    expect(b.incoming).toEqual([a]);
  });

  it('sequence() of nothing is empty; chaining onto an empty chain starts it', () => {
    const empty = Chain.sequence();
    expect(empty.startState).toBeUndefined();
    expect(empty.endStates).toEqual([]);
    expect(empty.id).toBe('(empty chain)');
    const a = t('A');
    expect(empty.next(a).startState).toBe(a);
    expect(Chain.start(a).next(Chain.sequence()).startState).toBe(a);
  });

  it('chains stay flat: a chain of chains ends where its last chain ends', () => {
    const inner = t('B').next(t('C'));
    const outer = Chain.start(t('A')).next(inner).next(t('D'));
    expect(outer.endStates.map((s) => s.id)).toEqual(['D']);
  });

  it('records misuse instead of throwing: next after a terminal, a second next', () => {
    const done = new Succeed('Done');
    // @ts-expect-error -- a chain ending in Succeed has output never
    t('A').next(done).next(t('B'));
    expect(done.misuses).toEqual([{ field: 'next', message: "a succeed state has no next state (tried to continue with 'B')" }]);
    const a = t('A');
    a.next(t('B'));
    a.next(t('C'));
    expect(a.misuses).toEqual([{ field: 'next', message: "already continues with 'B'; cannot also continue with 'C'" }]);
  });
});

describe('Choice', () => {
  it('when/otherwise record arms in order; afterwards() continues every open arm', () => {
    const yes = t('Yes');
    const no = t('No');
    const c = new Choice('C').when(Condition.isPresent('$.a'), yes).otherwise(no);
    expect(c.arms.map((a) => a.next)).toEqual([yes]);
    expect(c.otherwiseState).toBe(no);
    const after = t('After');
    c.afterwards().next(after);
    expect(yes.nextState).toBe(after);
    expect(no.nextState).toBe(after);
  });

  it('afterwards() skips terminal arms and arms that loop back', () => {
    const body = t('Body');
    const c = new Choice('Again').when(Condition.isPresent('$.more'), body).when(Condition.isNull('$'), new Fail('F'));
    body.next(c);
    expect(c.afterwards().endStates).toEqual([]);
    expect(c.afterwards({ includeOtherwise: true }).endStates).toEqual([c]);
  });

  it('a second otherwise is a misuse', () => {
    const c = new Choice('C').otherwise(t('A')).otherwise(t('B'));
    expect(c.misuses).toEqual([{ field: 'otherwise', message: "otherwise is already 'A'; cannot also be 'B'" }]);
  });
});

describe('Condition', () => {
  it('builds the serializable IR AST', () => {
    expect(Condition.or(Condition.stringEquals('$.s', 'x'), Condition.not(Condition.isBoolean('$.b'))).ir).toEqual({
      kind: 'or',
      any: [
        { kind: 'compare', type: 'string', op: 'eq', path: '$.s', value: 'x' },
        { kind: 'not', arg: { kind: 'test', test: 'boolean', path: '$.b', expected: true } },
      ],
    });
    expect(Condition.timestampLessThanEquals('$.t', '2026-01-01T00:00:00Z').ir).toEqual({ kind: 'compare', type: 'timestamp', op: 'le', path: '$.t', value: '2026-01-01T00:00:00Z' });
    expect(Condition.comparePaths('number', 'ge', '$.a', '$.b').ir).toEqual({ kind: 'comparePath', type: 'number', op: 'ge', path: '$.a', otherPath: '$.b' });
    expect(Condition.isNotPresent('$.x').ir).toEqual({ kind: 'test', test: 'present', path: '$.x', expected: false });
    expect(Condition.fromIr({ kind: 'matches', path: '$', pattern: 'a*' }).ir).toEqual({ kind: 'matches', path: '$', pattern: 'a*' });
    expect(JSON.parse(JSON.stringify(Condition.numberGreaterThanEquals('$.n', 1).ir))).toEqual({ kind: 'compare', type: 'number', op: 'ge', path: '$.n', value: 1 });
  });
});

describe('Parallel, Map, Fold, Definition', () => {
  it('Parallel records branch starts in order', () => {
    const b1 = t('B1');
    const b2 = t('B2');
    const p = new Parallel('P').branch(b1).branch(b2.next(t('B3')));
    expect(p.branches).toEqual([b1, b2]);
    expect(b1.incoming).toEqual([p]);
  });

  it('Map is exported under both names and records its processor once', () => {
    expect(Map).toBe(MapState);
    const m = new Map('M', { itemsPath: '$.items' }).itemProcessor(t('I'));
    expect(m.processorState?.id).toBe('I');
    m.itemProcessor(t('J'));
    expect(m.misuses).toEqual([{ field: 'itemProcessor', message: "the item processor is already set (to 'I')" }]);
  });

  it('Task and Fold record retry and catch rules', () => {
    const handler = new Pass('H');
    const task = t('A').addRetry({ errors: ['E'] }).addCatch(handler, { resultPath: '$.err' });
    expect(task.retries).toEqual([{ errors: ['E'] }]);
    expect(task.catches).toEqual([{ handler, props: { resultPath: '$.err' } }]);
    expect(handler.incoming).toEqual([task]);
    const fold = new Fold('F', { entry: ENTRY, initial: [] }).addRetry();
    expect(fold.retries).toEqual([{}]);
  });

  it('Definition.from keeps the start state', () => {
    const a = t('A');
    expect(Definition.from(a.next(t('B'))).startState).toBe(a);
    expect(Definition.from(Chain.sequence()).startState).toBeUndefined();
  });
});
