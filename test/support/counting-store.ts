/** Wraps a CheckpointStore to count calls and successful checkpoint commits, and to inject failures. */
import type { CheckpointStore } from '../../runtime/ports/store';

export interface Counting {
  readonly store: CheckpointStore;
  readonly calls: Record<string, number>;
  /** Checkpoint puts that committed (the conditional write succeeded). */
  readonly commits: string[];
  /** Throw before the named operation runs this many times. */
  readonly failBefore: Record<string, number>;
}

export function counting(inner: CheckpointStore): Counting {
  const calls: Record<string, number> = {};
  const commits: string[] = [];
  const failBefore: Record<string, number> = {};
  const store = new Proxy(inner, {
    get(target, prop: string) {
      const orig = (target as unknown as Record<string, unknown>)[prop];
      if (typeof orig !== 'function') return orig;
      return async (...args: unknown[]) => {
        calls[prop] = (calls[prop] ?? 0) + 1;
        if ((failBefore[prop] ?? 0) > 0) {
          failBefore[prop]--;
          throw new Error(`injected failure before ${prop}`);
        }
        const r = await (orig as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (prop === 'putCheckpoint' && r === undefined) commits.push(args[0] as string);
        return r;
      };
    },
  });
  return { store, calls, commits, failBefore };
}
