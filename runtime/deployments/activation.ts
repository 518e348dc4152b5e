/**
 * A deployment activated at a Create or Update of the workflow's
 * `Custom::UnumDeployment`, once CloudFormation has published every
 * function's version and created the deployment's roles. The aliases are
 * made here, not by CloudFormation: the same content deployed again (a
 * revert) finds its alias retained, which CloudFormation would fail to
 * create. In this order, so that a start meets either the previous
 * deployment or all of this one:
 * 0. the workflow's envelope key, at its first deploy (kept by every later
 *    one: runtime/contract/table/envelope-key.ts);
 * 1. each function's alias named by the deployment id, on its version (moved
 *    there if it named another);
 * 2. each such alias's async-invoke settings (none for a function only ever
 *    invoked synchronously: the task-response and run-control functions);
 * 3. the deployment recorded (record.ts);
 * 4. last, the entry's `live` alias on the entry's version, and its settings,
 *    then each action's alias of the run-control function (`stop`,
 *    `redrive`: runtime/contract/run-control.ts) on its version, so that a
 *    stop or a redrive runs the code of the deployment runs start on.
 * Every step is idempotent: a retried request, or one after a crash halfway,
 * converges.
 */
import { LIVE_ALIAS } from '../contract/ir';
import { RUN_CONTROL_ACTIONS, RUN_CONTROL_NAME } from '../contract/run-control';
import type { DeploymentFunction } from '../contract/table';
import type { DeploymentResources } from '../ports/deployment-resources';
import { type DeploymentRequest, recordOf } from './properties';
import { recordDeployment, removingError } from './record';
import type { DeploymentRecords } from './records';

/** Runs `call`, naming `what` it was doing in the error that fails the request. */
async function doing<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new Error(`${what}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
  }
}

/** Activates `request` at `at` (ISO-8601); what was done, for the answer to CloudFormation. Throws (nothing of `live` moved) when a step fails. */
export async function activateDeployment(records: DeploymentRecords, resources: DeploymentResources, request: DeploymentRequest, at: string): Promise<string> {
  const id = request.deployment;
  // Refused before an alias is touched: the sweeper is deleting them.
  const before = await records.get(id);
  if (before?.removingAt !== undefined && before.removedAt === undefined) throw removingError(before);

  await doing("creating the workflow's envelope key", () => records.createEnvelopeKey());
  const moved: DeploymentFunction[] = [];
  for (const f of request.functions) {
    const previous = await doing(`giving version ${f.version} of ${f.functionName} the alias ${id}`, () => resources.ensureAlias(f.functionName, id, f.version));
    if (previous !== undefined) moved.push({ node: f.node, functionName: f.functionName, version: previous });
  }
  for (const { functionName, async } of request.functions) {
    if (async !== undefined) await doing(`setting the async-invoke settings of ${functionName}:${id}`, () => resources.putEventInvokeConfig(functionName, id, async));
  }
  const recorded = await recordDeployment(records, recordOf(request), at, moved);

  const { entry } = request;
  await doing(`moving ${entry.functionName}:${LIVE_ALIAS} to version ${entry.version}`, () => resources.ensureAlias(entry.functionName, LIVE_ALIAS, entry.version));
  await doing(`setting the async-invoke settings of ${entry.functionName}:${LIVE_ALIAS}`, () => resources.putEventInvokeConfig(entry.functionName, LIVE_ALIAS, entry.async));
  // Absent from a deployment synthesized before the function existed (a rollback to one): the aliases stay (removal.ts).
  const control = request.functions.find((f) => f.node === RUN_CONTROL_NAME);
  if (control !== undefined) {
    for (const action of RUN_CONTROL_ACTIONS) {
      await doing(`moving ${control.functionName}:${action} to version ${control.version}`, () => resources.ensureAlias(control.functionName, action, control.version));
    }
  }
  const movedNote = moved.length === 0 ? '' : `; moved its aliases from ${moved.map((m) => `${m.functionName}:${m.version}`).join(', ')}`;
  return `${recorded}${movedNote}; ${LIVE_ALIAS} is ${entry.functionName}:${entry.version}`;
}
