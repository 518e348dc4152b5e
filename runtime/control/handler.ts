/**
 * The run-control function (runtime/contract/run-control.ts): stops or
 * redrives one run of its workflow, doing what the alias it was invoked
 * through names (`stop`, `redrive`). A principal granted one alias cannot
 * reach the other action, nor make any write but the action's own: the
 * request names a run (and a stop's error and cause), never an item, a
 * status or a result. Invoked synchronously by the client, which turns the
 * answer into its result or error.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { splitFunctionRef } from '../contract/function-ref';
import { ENV, WORKFLOW_ID_PATTERN } from '../contract/ir';
import type { RunRef } from '../contract/table';
import { EventBridgeScheduler } from '../aws/eventbridge-scheduler';
import { RUN_CONTROL_ACTIONS, type RedriveRequest, type RunControlAction, type RunControlAnswer, type StopRequest } from '../contract/run-control';
import { ControlTable } from './control-table';
import { deploymentGraphs } from './deployment-graphs';
import { RedriveRefusal, redriveRun } from './redrive';
import { type RedrivenTimeout, redrivenTimeoutSchedule } from './redriven-timeout';
import { stopRun } from './stop';

/** Step Functions' bounds of StopExecution's `error` and `cause`. */
const STOP_BOUNDS = { error: 256, cause: 32_768 } as const;

/** The request, checked against what `action` takes; a string says what is wrong with it. */
function requestOf(action: RunControlAction, event: unknown): (StopRequest & RedriveRequest) | string {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'the request must be an object';
  const r = event as Record<string, unknown>;
  const allowed = action === 'stop' ? ['workflowId', 'error', 'cause'] : ['workflowId', 'deployment'];
  const unknown = Object.keys(r).find((k) => !allowed.includes(k));
  if (unknown !== undefined) return `a ${action} request has no field '${unknown}' (it takes ${allowed.join(', ')})`;
  if (typeof r.workflowId !== 'string' || !WORKFLOW_ID_PATTERN.test(r.workflowId)) return `workflowId must match ${WORKFLOW_ID_PATTERN}`;
  for (const field of ['error', 'cause'] as const) {
    if (r[field] !== undefined && (typeof r[field] !== 'string' || r[field].length > STOP_BOUNDS[field])) return `${field} must be a string of at most ${STOP_BOUNDS[field]} characters`;
  }
  if (r.deployment !== undefined && r.deployment !== 'latest') return "deployment must be 'latest' or absent (the run's own deployment)";
  return r as unknown as StopRequest & RedriveRequest;
}

let clients: { dynamodb: DynamoDBClient; lambda: LambdaClient; scheduler: EventBridgeScheduler } | undefined;

/** Schedules a redriven run's timeout to the failure recorder (the construct names it when the workflow has a timeout). */
async function scheduleTimeout(scheduler: EventBridgeScheduler, run: RunRef, timeout: RedrivenTimeout): Promise<void> {
  const functionName = process.env[ENV.runTimeoutFunction];
  if (!functionName) throw new Error(`unum: run ${run.workflowId} has a timeout, and this run-control function has no ${ENV.runTimeoutFunction} to schedule it to`);
  await scheduler.schedule(redrivenTimeoutSchedule(run, timeout, functionName));
}

export async function handler(event: unknown, context: { readonly invokedFunctionArn?: string }): Promise<RunControlAnswer> {
  const alias = splitFunctionRef(context.invokedFunctionArn ?? '').qualifier;
  const action = RUN_CONTROL_ACTIONS.find((a) => a === alias);
  if (action === undefined) return { invalid: `invoke the run-control function through its ${RUN_CONTROL_ACTIONS.join(' or ')} alias, not ${alias ?? 'unqualified'}` };
  const request = requestOf(action, event);
  if (typeof request === 'string') return { invalid: request };
  const workflow = process.env[ENV.workflow] ?? '';
  clients ??= { dynamodb: new DynamoDBClient({}), lambda: new LambdaClient({}), scheduler: new EventBridgeScheduler() };
  const { lambda, scheduler } = clients;
  const table = new ControlTable(process.env[ENV.table] ?? '', clients.dynamodb);
  const run = { workflow, workflowId: request.workflowId };
  if (action === 'stop') return { stopped: await stopRun(table, run, request) };
  const invoke = async (functionName: string, payload: string): Promise<void> => {
    try {
      await lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(payload) }));
    } catch (err) {
      throw new Error(`invoking ${functionName} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  };
  try {
    const deps = { table, invoke, deployments: deploymentGraphs(table, workflow), scheduleTimeout: (r: RunRef, t: RedrivenTimeout) => scheduleTimeout(scheduler, r, t) };
    return { redriven: await redriveRun(deps, run, request) };
  } catch (e) {
    if (e instanceof RedriveRefusal) return { refused: { status: e.status, reason: e.reason } };
    throw e;
  }
}
