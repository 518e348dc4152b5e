// shouter.test.ts: the workflow of the quick start, tested on the local engine with node:test
// (jest is the same). Synthesize first (`npx cdk synth`), or in the test: new App({ outdir }), app.synth().
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLocalEngine, type LocalTestEngine } from 'unum-cdk/local';
import { randomFaults } from 'unum-cdk/testing'; // needs fast-check (npm install --save-dev fast-check)

let engine: LocalTestEngine;
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
  assert.deepEqual(run.faults?.violations, []);
  assert.deepEqual(run.result, { shouted: 'A B', count: 2 });
});
