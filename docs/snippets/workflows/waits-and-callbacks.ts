// The Wait and callback examples of docs/writing-workflows.md.
import * as path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Definition, Fail, IntegrationPattern, Task, UnumWorkflow, Wait, WaitTime } from 'unum-cdk';
import type { UnumClient } from 'unum-cdk/client';

const entry = path.join(__dirname, 'handlers.ts');

export function waits(): Definition {
  const order = new Task('Order', { entry, handler: 'order' });
  // #region wait
  const remind = new Task('Remind', { entry, handler: 'remind' });
  const definition = Definition.from(
    order
      .next(new Wait('OneDay', { time: WaitTime.duration(Duration.days(1)) }))   // or a number of seconds
      .next(new Wait('UntilDue', { time: WaitTime.timestampPath('$.dueAt') }))  // also timestamp('2027-01-01T09:00:00Z'), secondsPath('$.s')
      .next(remind),
  );
  // #endregion
  return definition;
}

export function callbacks(stack: Stack, approvalsApi: iam.IGrantable): UnumWorkflow {
  const order = new Task('Order', { entry, handler: 'order' });
  const ship = new Task('Ship', { entry, handler: 'ship' });
  const rejected = new Fail('Rejected', { error: 'Rejected', cause: 'the approver said no' });
  // #region callback-task
  const approve = new Task('Approve', {
    entry, handler: 'askForApproval',
    integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN,
    parameters: { 'token.$': '$$.Task.Token', 'order.$': '$.order' },  // or read unum.taskToken in the handler
    resultPath: '$.approval',
    timeout: Duration.days(3),        // States.Timeout if no completion came (default: one year)
    heartbeat: Duration.hours(1),     // States.HeartbeatTimeout if no heartbeat came for an hour (optional)
  }).addCatch(rejected, { errors: ['Rejected'], resultPath: '$.error' });

  const workflow = new UnumWorkflow(stack, 'Orders', { definition: Definition.from(order.next(approve).next(ship)) });
  workflow.grantTaskResponse(approvalsApi);   // may complete tokens, and nothing else
  // #endregion
  return workflow;
}

// #region callback-handler
// handlers.ts: the handler sends the token out and returns; the run waits.
export async function askForApproval(input: { token: string; order: { id: string } }): Promise<void> {
  await sendMail('approver@example.com', `approve ${input.order.id}: https://example.com/approve?token=${encodeURIComponent(input.token)}`);
}
// #endregion

/** Stands in for your mail service. */
async function sendMail(to: string, text: string): Promise<void> {
  console.log(`mail to ${to}: ${text}`);
}

export async function complete(client: UnumClient, token: string): Promise<void> {
  // #region complete
  // Whoever completes it (a principal granted grantTaskResponse), with the workflow's UnumClient:
  await client.sendTaskSuccess(token, { approvedBy: 'ann' });        // the run goes on at Ship
  await client.sendTaskFailure(token, 'Rejected', 'out of stock');   // the Catch rule for 'Rejected' takes it
  await client.sendTaskHeartbeat(token);                             // the heartbeat timeout starts again
  // #endregion
}
