/**
 * The nodes whose functions may be invoked again from their own chain of
 * invocations: exactly the nodes on a cycle of the successor graph (a
 * strongly connected component of more than one node, or a node that is its
 * own successor). Lambda's recursive-loop detection stops such a chain once
 * it returns to the same function about 16 times, so these functions, and
 * only these, set `recursiveLoop: Allow`:
 *
 * - a loop (a transition back to an earlier state): every node of the loop;
 * - a fold: each step invokes the next, once per item;
 * - a bounded Map: each item's tail launches the next item of its slot;
 * - a retried Parallel/Map: its join starts the state again;
 * - any Map's item processor start: a launcher of the launch tree
 *   (runtime/step/launch-tree.ts) launches further launchers of the same
 *   function, about log(items)/log(mapLaunchWidth) deep, which exceeds 16
 *   with a small `mapLaunchWidth` and a large input.
 *
 * A node before or after a cycle is invoked once per chain and keeps
 * Lambda's protection against runaway recursion.
 */
export function nodesOnCycles(successors: ReadonlyMap<string, readonly string[]>): Set<string> {
  const onCycle = new Set<string>();
  for (const component of stronglyConnected(successors)) {
    const [only] = component;
    if (component.length > 1 || (successors.get(only) ?? []).includes(only)) component.forEach((n) => onCycle.add(n));
  }
  return onCycle;
}

/**
 * Tarjan's strongly connected components, iterative: workflows of 10,000
 * nodes are deeper than the call stack. Successors outside the map are ignored;
 * components come out in the order their search completes (test/support/import-graph.ts
 * reads the project's import cycles with it too).
 */
export function stronglyConnected(successors: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of successors.keys()) {
    if (index.has(root)) continue;
    const frames: { node: string; succ: readonly string[]; next: number }[] = [];
    const enter = (node: string): void => {
      index.set(node, index.size);
      low.set(node, index.get(node) as number);
      stack.push(node);
      onStack.add(node);
      frames.push({ node, succ: (successors.get(node) ?? []).filter((s) => successors.has(s)), next: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const top = frames[frames.length - 1];
      if (top.next < top.succ.length) {
        const child = top.succ[top.next++];
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node) as number, index.get(child) as number));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      components.push(component);
    }
  }
  return components;
}
