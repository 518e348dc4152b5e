/**
 * `UnumClient.listDeployments` and `unum deployments`' table: the records the
 * sweeper writes (runtime/contract/table deployments.ts), newest first, the
 * current one live, and how many functions each keeps deployed.
 */
import { UnumClient } from '../../lib/client';
import { formatDeployments } from '../../lib/client/format';
import { deploymentListed, deploymentPut, deploymentRemoved, deploymentRemoving, deploymentSuperseded, type DeploymentRecord, type Item, type UpdateRequest } from '../../runtime/contract/table';
import { stubDynamo, stubLambda } from './support/sdk-stub';

/** `item` after `request`'s SETs and ADDs of single values (what the sweeper's updates of these records are). */
function applied(item: Item, request: UpdateRequest): Item {
  const out: Item = { ...request.Key, ...item };
  const [, sets = '', adds = ''] = /^(?:SET (.*?))?(?: ?ADD (.*))?$/.exec(request.UpdateExpression) ?? [];
  for (const assignment of sets.split(', ').filter(Boolean)) {
    const [name, placeholder] = assignment.split(' = ');
    out[name.startsWith('#') ? request.ExpressionAttributeNames?.[name] ?? name : name] = request.ExpressionAttributeValues[placeholder];
  }
  for (const addition of adds.split(', ').filter(Boolean)) {
    const [name, placeholder] = addition.split(' ');
    out[name] = { SS: [...(out[name]?.SS ?? []), ...(request.ExpressionAttributeValues[placeholder].SS ?? [])] };
  }
  return out;
}

const record = (deployment: string, activatedAt: string, functions: number): DeploymentRecord => ({
  deployment,
  activatedAt,
  functions: Array.from({ length: functions }, (_, i) => ({ node: `N${i}`, functionName: `wf-N${i}`, version: '1' })),
  graph: {},
  handoffSeconds: 900,
  runRetentionSeconds: 86400,
});

const [OLD, MID, NEW] = ['d00000000000000000001', 'd00000000000000000002', 'd00000000000000000003'];

function deployed(): Item[] {
  const list = [OLD, MID, NEW].reduce<Item>((item, id) => applied(item, deploymentListed('Orders', id)), {});
  const old = [deploymentSuperseded('Orders', OLD, '2026-01-02T00:00:00.000Z'), deploymentRemoving('Orders', OLD, '2026-01-03T00:00:00.000Z'), deploymentRemoved('Orders', OLD, '2026-01-03T00:01:00.000Z', 1)]
    .reduce(applied, deploymentPut('Orders', record(OLD, '2026-01-01T00:00:00.000Z', 4)).Item);
  const mid = applied(deploymentPut('Orders', record(MID, '2026-01-02T00:00:00.000Z', 5)).Item, deploymentSuperseded('Orders', MID, '2026-01-05T00:00:00.000Z'));
  return [list, old, mid, deploymentPut('Orders', record(NEW, '2026-01-05T00:00:00.000Z', 6)).Item];
}

const client = (items: Item[]): UnumClient => UnumClient.forWorkflow({ entryFunction: 'wf-Entry', table: 't', workflow: 'Orders', lambda: stubLambda().client, dynamodb: stubDynamo(items) });

test('newest first; the one not superseded is live; a removed one keeps no function', async () => {
  expect(await client(deployed()).listDeployments()).toEqual([
    { deployment: NEW, activatedAt: '2026-01-05T00:00:00.000Z', live: true, retainedFunctions: 6 },
    { deployment: MID, activatedAt: '2026-01-02T00:00:00.000Z', supersededAt: '2026-01-05T00:00:00.000Z', live: false, retainedFunctions: 5 },
    {
      deployment: OLD, activatedAt: '2026-01-01T00:00:00.000Z', supersededAt: '2026-01-02T00:00:00.000Z',
      removingAt: '2026-01-03T00:00:00.000Z', removedAt: '2026-01-03T00:01:00.000Z', live: false, retainedFunctions: 0,
    },
  ]);
});

test('an id whose record expired is left out; a workflow without records lists none', async () => {
  const [list, , mid, latest] = deployed();
  expect((await client([list, mid, latest]).listDeployments()).map((d) => d.deployment)).toEqual([NEW, MID]);
  expect(await client([]).listDeployments()).toEqual([]);
});

test('the table: one row per deployment, the live one marked, - for what has not happened', async () => {
  expect(formatDeployments(await client(deployed()).listDeployments())).toBe([
    'deployment             live  activated                 superseded                removed                   functions',
    `${NEW}  live  2026-01-05T00:00:00.000Z  -                         -                         6`,
    `${MID}        2026-01-02T00:00:00.000Z  2026-01-05T00:00:00.000Z  -                         5`,
    `${OLD}        2026-01-01T00:00:00.000Z  2026-01-02T00:00:00.000Z  2026-01-03T00:01:00.000Z  0`,
  ].join('\n'));
  expect(formatDeployments([])).toMatch(/^no deployments recorded/);
});
