import { forEachLimit } from '../../runtime/ports/pool';

/**
 * Runs `fn` over `items` with up to `limit` groups in flight and each group's
 * items one after another. Tests that run many cases on the local engine group
 * them by workflow: a workflow's cases then reuse its warm sandboxes, where
 * running them at once would cold-start a sandbox for each (about a third of
 * the corpus tests' CPU on 2 cores).
 */
export async function forEachGrouped<T>(items: readonly T[], groupOf: (item: T) => string, limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = groupOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  await forEachLimit([...groups.values()], limit, async (group) => {
    for (const item of group) await fn(item);
  });
}
