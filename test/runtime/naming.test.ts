import fc from 'fast-check';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, runKey, shardKey } from '../../runtime/contract/table';

const run = (workflowId: string, workflow = 'W') => ({ workflow, workflowId });

test('names are 43 base64url characters at any depth', () => {
  const deep = Array.from({ length: 50 }, (_, i) => ({ iteration: i, index: i * 7 }));
  for (const frames of [[], deep]) expect(invocationName(run('wf'), 'node', 3, frames)).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

test('names are deterministic and distinguish every component, the workflow included', () => {
  const base = invocationName(run('wf'), 'A', 0, [{ iteration: 0, index: 1 }]);
  expect(invocationName(run('wf'), 'A', 0, [{ iteration: 0, index: 1 }])).toBe(base);
  const variants = [
    invocationName(run('wf', 'V'), 'A', 0, [{ iteration: 0, index: 1 }]),
    invocationName(run('wf2'), 'A', 0, [{ iteration: 0, index: 1 }]),
    invocationName(run('wf'), 'B', 0, [{ iteration: 0, index: 1 }]),
    invocationName(run('wf'), 'A', 1, [{ iteration: 0, index: 1 }]),
    invocationName(run('wf'), 'A', 0, [{ iteration: 1, index: 1 }]),
    invocationName(run('wf'), 'A', 0, [{ iteration: 0, index: 2 }]),
    invocationName(run('wf'), 'A', 0, [{ iteration: 0, index: 1 }, { iteration: 0, index: 0 }]),
    invocationName(run('wf'), 'A', 0, [{ iteration: 0, index: 1 }], 0),
  ];
  expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
});

test('no collisions between distinct tuples (property)', () => {
  const tuple = fc.tuple(
    fc.record({ workflow: fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), workflowId: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,12}$/) }),
    fc.string({ minLength: 1, maxLength: 8 }),
    fc.nat(5),
    fc.array(fc.record({ iteration: fc.nat(3), index: fc.nat(5) }), { maxLength: 3 }),
    fc.option(fc.nat(3), { nil: undefined }),
  );
  fc.assert(
    fc.property(tuple, tuple, (a, b) => {
      const same = JSON.stringify(a) === JSON.stringify(b);
      return (invocationName(...a) === invocationName(...b)) === same;
    }),
  );
});

test('the name depends only on frame positions, not on the rest of the frame', () => {
  const frame = { iteration: 2, index: 4, size: 10, kind: 'map' as const, origin: 'ckpt#x' };
  expect(invocationName(run('w'), 'n', 0, [frame])).toBe(invocationName(run('w'), 'n', 0, [{ iteration: 2, index: 4 }]));
});

test('item keys', () => {
  expect(checkpointKey('abc')).toBe('ckpt#abc');
  expect(shardKey('j', 1, 7)).toBe('fanin#j#1#7');
  expect(runKey(run('w-1'))).toBe('run#W#w-1');
});
