import type { Reporter } from './errors';
import { WORKFLOW_LEVEL } from './errors';
import type { TaskResource } from './resource';
import type { AslTaskProps, FromAslOptions } from './types';

/**
 * Finds the function settings of each Task in `options.tasks`: by state name
 * first, then by `Resource` as written, then by the function it names; then
 * `defaultTask`. Records which keys could match a Task, so that a key that
 * matches nothing (a typo) is reported instead of silently ignored.
 */
export class TaskCatalog {
  private readonly matchable = new Set<string>();

  constructor(
    private readonly report: Reporter,
    private readonly options: FromAslOptions,
  ) {}

  propsFor(state: string, target: TaskResource): AslTaskProps {
    const keys = [...new Set([state, target.resource, ...target.aliases, target.functionName])];
    keys.forEach((k) => this.matchable.add(k));
    const tasks = this.options.tasks ?? {};
    const key = keys.find((k) => Object.prototype.hasOwnProperty.call(tasks, k));
    if (key !== undefined) return tasks[key];
    const fallback = this.options.defaultTask;
    if (typeof fallback === 'function') return fallback({ state, resource: target.resource, functionName: target.functionName });
    if (fallback !== undefined) return fallback;
    return this.report.fail(state, 'Resource', `no function settings for this Task: add tasks[${keys.map((k) => JSON.stringify(k)).join('] or tasks[')}] (or defaultTask) with at least { entry }`);
  }

  /** Call after every Task was read: rejects `tasks` keys that name no Task state or resource. */
  rejectUnmatchedKeys(): void {
    for (const key of Object.keys(this.options.tasks ?? {})) {
      if (!this.matchable.has(key)) {
        this.report.fail(WORKFLOW_LEVEL, `tasks[${JSON.stringify(key)}]`, `the key matches no Task state name, Resource or function name in the definition (known: ${[...this.matchable].sort().join(', ') || 'none'})`);
      }
    }
  }
}
