/**
 * What a redrive onto the latest deployment reads of the workflow's
 * deployment records (runtime/contract/table/deployments.ts): the current
 * deployment (the newest one not superseded: a deploy records the new one
 * before it supersedes the old) and a deployment's node graph, each with the
 * table format its record was written in (its runtime's, which names a run's
 * invocations). Reads only: the sweeper keeps the records.
 */
import { currentOf, decodeDeploymentList, decodeDeploymentRecord, deploymentKey, formatOf, newestFirst } from '../contract/table';
import type { ControlTable } from './control-table';
import type { NodeGraph } from './graph-changes';

/** A deployment's node graph, and the table format of its record. */
export interface DeploymentGraph {
  readonly graph: NodeGraph;
  readonly format: number;
}

export interface DeploymentGraphs {
  /** The workflow's current deployment and its node graph; undefined when it has no deployment record. */
  latest(): Promise<({ readonly deployment: string } & DeploymentGraph) | undefined>;
  /** The node graph of `deployment`, from its record; undefined when it has none. */
  graphOf(deployment: string): Promise<DeploymentGraph | undefined>;
}

export function deploymentGraphs(table: ControlTable, workflow: string): DeploymentGraphs {
  return {
    latest: async () => {
      const ids = decodeDeploymentList(await table.get(deploymentKey(workflow)));
      const items = await table.getMany(ids.map((id) => deploymentKey(workflow, id)));
      const current = currentOf(newestFirst([...items.values()].map((item) => ({ ...decodeDeploymentRecord(item), format: formatOf(item) }))));
      return current && { deployment: current.deployment, graph: current.graph, format: current.format };
    },
    graphOf: async (deployment) => {
      const item = await table.get(deploymentKey(workflow, deployment));
      return item && { graph: decodeDeploymentRecord(item).graph, format: formatOf(item) };
    },
  };
}
