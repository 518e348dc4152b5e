/**
 * Whether some node can invoke itself again through the nodes' successors:
 * a loop, a fold, a bounded Map's slot chain, a retried Parallel/Map. Lambda's
 * recursive-loop detection must be told about exactly these workflows.
 */
export function hasCycle(successors: ReadonlyMap<string, readonly string[]>): boolean {
  const done = new Set<string>();
  const onPath = new Set<string>();
  for (const root of successors.keys()) {
    if (done.has(root)) continue;
    // Iterative depth-first search: workflows of 10,000 nodes are deeper than the call stack.
    const stack: { node: string; next: number }[] = [{ node: root, next: 0 }];
    onPath.add(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const succ = successors.get(top.node) ?? [];
      if (top.next < succ.length) {
        const child = succ[top.next++];
        if (onPath.has(child)) return true;
        if (!done.has(child)) {
          onPath.add(child);
          stack.push({ node: child, next: 0 });
        }
      } else {
        stack.pop();
        onPath.delete(top.node);
        done.add(top.node);
      }
    }
  }
  return false;
}
