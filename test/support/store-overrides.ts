/**
 * A CheckpointStore with some of its methods replaced, for tests that hold,
 * observe or break one call: every other call goes to `inner` unchanged. A
 * replacement that still does the call calls `inner` itself.
 */
import type { CheckpointStore } from '../../runtime/ports/store';

export function overriding(inner: CheckpointStore, overrides: Partial<CheckpointStore>): CheckpointStore {
  return new Proxy(inner, {
    get(target, prop) {
      const replaced = (overrides as Record<string | symbol, unknown>)[prop];
      if (replaced !== undefined) return replaced;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
