import { qualifiedName, type NodeIR, type RecorderNode, type RecorderSpec } from '../../runtime/contract/ir';

/**
 * The failure recorder's spec (runtime/contract/ir/ `RecorderSpec`) from the compiled
 * nodes: each node's state where it differs from its name, and for nodes
 * with `stateErrors` the join of their innermost Parallel/Map, with the
 * function names of those joins (the recorder invokes them), and the
 * retention settings, which bound how long a failure it records can be redriven.
 * @param deployment the deployment whose aliases the joins' names are qualified with;
 * undefined: the spec the deployment id is computed from (`deployment` empty, names unqualified).
 */
export function recorderSpec(nodes: Readonly<Record<string, { readonly ir: NodeIR }>>, names: ReadonlyMap<string, string>, deployment?: string): RecorderSpec {
  const specNodes: Record<string, RecorderNode> = {};
  const functionNames: Record<string, string> = {};
  for (const [node, { ir }] of Object.entries(nodes)) {
    const stateJoin = ir.stateErrors ? ir.enclosingJoin?.node : undefined;
    if (stateJoin !== undefined) {
      const name = names.get(stateJoin) as string;
      functionNames[stateJoin] = deployment === undefined ? name : qualifiedName(name, deployment);
    }
    if (ir.state === undefined && stateJoin === undefined) continue;
    specNodes[node] = { ...(ir.state === undefined ? {} : { state: ir.state }), ...(stateJoin === undefined ? {} : { stateJoin }) };
  }
  const settings = Object.values(nodes)[0]?.ir.settings;
  const retention = settings && { checkpointTtlSeconds: settings.checkpointTtlSeconds, handoffSeconds: settings.handoffSeconds };
  return { deployment: deployment ?? '', nodes: specNodes, functionNames, ...(retention ? { retention } : {}) };
}
