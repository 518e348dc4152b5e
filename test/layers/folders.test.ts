/**
 * The house's rules, read from the code's own imports (docs/architecture.md,
 * "Layers"): the runtime's folders import only the folders below them, lib/
 * reads the runtime through its contract and data language, and no source
 * file outgrows one job. eslint.config.mjs enforces the same import rules
 * while editing; this reads the whole graph, dynamic imports included.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importGraph } from '../support/import-graph';

const ROOT = path.join(__dirname, '..', '..');

/** The runtime's folders, lowest first, as eslint.config.mjs lists them: one list for both checks. */
function runtimeFolders(): string[] {
  const config = fs.readFileSync(path.join(ROOT, 'eslint.config.mjs'), 'utf8');
  const list = /const RUNTIME_FOLDERS = \[([^\]]*)\]/.exec(config)?.[1];
  if (!list) throw new Error('eslint.config.mjs has no RUNTIME_FOLDERS list');
  return [...list.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
}

const folderOf = (file: string): string => file.split('/')[1];

test('every folder of runtime/ is in the layer list, and the runtime has no file outside a folder', () => {
  const folders = runtimeFolders();
  const onDisk = fs.readdirSync(path.join(ROOT, 'runtime'), { withFileTypes: true });
  expect(onDisk.filter((e) => e.isFile()).map((e) => e.name)).toEqual([]);
  expect(onDisk.filter((e) => e.isDirectory()).map((e) => e.name).sort()).toEqual([...folders].sort());
});

test("runtime/'s folders import only the folders before them in the layer list", () => {
  const order = runtimeFolders();
  const upward: string[] = [];
  for (const [file, targets] of importGraph(ROOT, ['runtime'])) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (order.indexOf(to) > order.indexOf(from)) upward.push(`${file} -> ${target}`);
    }
  }
  expect(upward).toEqual([]);
});

test('lib/ and bin/ import the runtime only through runtime/contract and runtime/language', () => {
  const graph = importGraph(ROOT, ['lib', 'bin', 'runtime']);
  const through = [...graph]
    .filter(([file]) => !file.startsWith('runtime/'))
    .flatMap(([file, targets]) => targets.filter((t) => t.startsWith('runtime/')).map((t) => `${file} -> ${t}`));
  expect(through.length).toBeGreaterThan(20);
  expect(through.filter((edge) => !/ -> runtime\/(contract|language)\//.test(edge))).toEqual([]);
});

test('no source file of lib/, runtime/ or bin/ is over 600 lines', () => {
  const long = [...importGraph(ROOT, ['lib', 'runtime', 'bin']).keys()]
    .map((file) => ({ file, lines: fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > 600);
  expect(long).toEqual([]);
});

test('every folder of runtime/ and lib/ has a README.md that names each of its source files', () => {
  const missing: string[] = [];
  for (const top of ['runtime', 'lib']) {
    for (const folder of fs.readdirSync(path.join(ROOT, top), { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const dir = path.join(ROOT, top, folder.name);
      const readme = path.join(dir, 'README.md');
      if (!fs.existsSync(readme)) {
        missing.push(`${top}/${folder.name}/README.md`);
        continue;
      }
      const text = fs.readFileSync(readme, 'utf8');
      const sources = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
      for (const file of sources) if (!text.includes(path.basename(file)) && !text.includes(`${path.dirname(file)}/`)) missing.push(`${top}/${folder.name}/${file} in its README`);
    }
  }
  expect(missing).toEqual([]);
});
