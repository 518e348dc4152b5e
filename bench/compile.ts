import { performance } from 'node:perf_hooks';
import { Definition, Task } from '../lib/definition';
import { compileWorkflow } from '../lib/compiler';

/** What `benchCompile` measured. */
export interface CompileBenchResult {
  /** Number of states in the chain. */
  readonly states: number;
  /** Nodes in the compiled workflow. */
  readonly nodes: number;
  /** Wall time of `compileWorkflow` alone, milliseconds (building the definition excluded). */
  readonly compileMs: number;
}

/** Builds a chain of `n` Tasks and times its compilation (for `npm run bench`; not a test). */
export function benchCompile(n: number): CompileBenchResult {
  const tasks = Array.from({ length: n }, (_, i) => new Task(`T${i}`, { entry: '/bench/handlers.js', handler: 'step' }));
  for (let i = 1; i < n; i++) tasks[i - 1].next(tasks[i]);
  const definition = Definition.from(tasks[0]);
  const started = performance.now();
  const compiled = compileWorkflow('Bench', definition);
  const compileMs = performance.now() - started;
  return { states: n, nodes: Object.keys(compiled.nodes).length, compileMs };
}
