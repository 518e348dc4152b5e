// A user's tests of their workflow with node:test: the local engine started once, each test one run.
const { after, before, test } = require('node:test');
const assert = require('node:assert/strict');
const { startLocalEngine } = require('unum-cdk/local');
const { randomFaults } = require('unum-cdk/testing');

let engine;
before(async () => { engine = await startLocalEngine({ app: 'cdk.out' }); });
after(() => engine.stop());

test('shouts every word', async () => {
  const run = await engine.run('Shouter', { text: 'a b' });
  assert.equal(run.status, 'SUCCEEDED');
  assert.deepEqual(run.result, { shouted: 'A B', count: 2 });
  assert.deepEqual(run.timeline.map((e) => e.node), ['Split', 'Shout', 'Shout', 'Join']);
});

test('the same under fault schedule 7: crashes, duplicates, reordering', async () => {
  const run = await engine.run('Shouter', { text: 'a b' }, { faults: randomFaults(7) });
  assert.deepEqual(run.faults.violations, []);
  assert.deepEqual(run.result, { shouted: 'A B', count: 2 });
});
