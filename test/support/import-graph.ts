/**
 * The import graph of the project's TypeScript sources, read with the
 * TypeScript compiler's own scanner (`ts.preProcessFile`): static imports and
 * re-exports (`import type` included), dynamic `import()` (also in type
 * positions, `typeof import('...')`) and `require('...')` with a literal
 * argument. Only relative specifiers that resolve to a source file count:
 * packages are outside the graph.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { stronglyConnected } from '../../lib/compiler/cycles';

/** File -> the files it imports; paths relative to the root, with '/' separators. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const EXTENSIONS = ['.ts', '.d.ts', '/index.ts'];

/** Every `.ts` file under `dirs` (relative to `root`) and the files each one imports. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((dir) => sourceFiles(path.join(root, dir)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((ref) => resolve(file, ref.fileName, known))
      .filter((target): target is string => target !== undefined);
    graph.set(relative(root, file), [...new Set(targets.map((t) => relative(root, t)))].sort());
  }
  return graph;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  // An ECMAScript import names the emitted file: './x.js' is the source './x.ts'.
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [base, ...EXTENSIONS.map((ext) => base + ext)].find((candidate) => known.has(candidate));
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * One cycle per strongly connected component that has one (Tarjan's
 * algorithm, iterative), each as the files in import order with the first
 * file repeated at the end, e.g. `['a.ts', 'b.ts', 'a.ts']`. Empty when the
 * graph is acyclic.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const sorted = new Map([...graph.keys()].sort().map((file) => [file, graph.get(file) ?? []]));
  const edges = (node: string): readonly string[] => graph.get(node) ?? [];
  return stronglyConnected(sorted)
    .filter((component) => component.length > 1 || edges(component[0]).includes(component[0]))
    .map((component) => cycleIn(new Set(component), edges));
}

/** A cycle through the smallest member of a strongly connected component: the shortest way back to it (breadth-first). */
function cycleIn(component: ReadonlySet<string>, edges: (node: string) => readonly string[]): string[] {
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const target of edges(queue[i])) {
      if (!component.has(target)) continue;
      if (target === start) {
        const way: string[] = [];
        for (let at = queue[i]; at !== start; at = previous.get(at) as string) way.unshift(at);
        return [start, ...way, start];
      }
      if (!previous.has(target)) {
        previous.set(target, queue[i]);
        queue.push(target);
      }
    }
  }
  throw new Error(`no cycle through ${start} in its component`);
}
