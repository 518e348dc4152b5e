/** Which cloud assembly the local commands run: a given one, the app's while it is fresh, or a new synth. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UnumLocalError } from '../../lib/local/errors';
import { cloudAssemblyOf } from '../../lib/local/project';

let app: string;
let lines: string[];
const log = (line: string): void => { lines.push(line); };

/** Sets a file's modification time `secondsAgo` in the past. */
function age(file: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
}

beforeEach(() => {
  lines = [];
  // An app directory outside any project: no cdk.json above it, no aws-cdk CLI to synthesize with.
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-project-'));
  fs.writeFileSync(path.join(app, 'cdk.json'), JSON.stringify({ app: 'node app.js', output: 'out' }));
  fs.writeFileSync(path.join(app, 'app.js'), '');
  fs.mkdirSync(path.join(app, 'out'));
  fs.writeFileSync(path.join(app, 'out', 'manifest.json'), '{}');
  fs.mkdirSync(path.join(app, 'node_modules'));
  fs.writeFileSync(path.join(app, 'node_modules', 'dep.js'), '');
  for (const f of ['cdk.json', 'app.js']) age(path.join(app, f), 60);
});
afterEach(() => fs.rmSync(app, { recursive: true, force: true }));

test('a cloud assembly given is used as it is', async () => {
  expect(await cloudAssemblyOf(path.join(app, 'out'), { log })).toBe(path.join(app, 'out'));
  expect(lines).toEqual([]);
});

test("an app's assembly (cdk.json `output`) newer than its sources is reused, and the output says so", async () => {
  expect(await cloudAssemblyOf(app, { log })).toBe(path.join(app, 'out'));
  expect(lines).toEqual([expect.stringMatching(/^using \S*out: it is newer than the app's sources \(--synth to synthesize again\)$/)]);
});

test('a source newer than the assembly, or --synth, synthesizes (here: no CDK CLI in the app, said so)', async () => {
  age(path.join(app, 'out', 'manifest.json'), 120);
  await expect(cloudAssemblyOf(app, { log })).rejects.toThrow(/needs the AWS CDK CLI in the app \(npm install --save-dev aws-cdk\); or synthesize it yourself and pass the cloud assembly \(--app cdk\.out\)/);
  expect(lines).toEqual([expect.stringMatching(/^synthesizing \S*cdk\.json into \S*out \.\.\.$/)]);
  age(path.join(app, 'out', 'manifest.json'), 0);
  await expect(cloudAssemblyOf(app, { log, synth: true })).rejects.toThrow(UnumLocalError);
});

test('node_modules and hidden directories are not sources', async () => {
  age(path.join(app, 'out', 'manifest.json'), 30);
  age(path.join(app, 'app.js'), 90);
  fs.mkdirSync(path.join(app, '.cache'));
  fs.writeFileSync(path.join(app, '.cache', 'x'), '');
  expect(await cloudAssemblyOf(app, { log })).toBe(path.join(app, 'out'));
});

test('--synth with a cloud assembly, and a directory that is neither, are errors saying what to pass', async () => {
  await expect(cloudAssemblyOf(path.join(app, 'out'), { log, synth: true })).rejects.toThrow(/is a cloud assembly: --synth takes a CDK app directory/);
  await expect(cloudAssemblyOf(path.join(app, 'node_modules'), { log })).rejects.toThrow(/no cloud assembly \(manifest\.json\) and no CDK app \(cdk\.json\): pass --app <cdk\.out \| app directory>/);
});
