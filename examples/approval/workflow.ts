import * as path from 'path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Choice, Condition, Definition, Fail, IntegrationPattern, Succeed, Task, Wait, WaitTime } from '../../lib/definition';
import type * as h from './handlers';

const entry = path.join(__dirname, 'handlers.ts');

/** The callback Task: its function is the one that needs to write the approvals inbox. */
export const ASK_APPROVER = 'AskApprover';
/** How long a claim is held before it goes to the approver, and how long the approver has to answer. */
export const HOLD = Duration.days(1);
export const ANSWER_WITHIN = Duration.days(1);

/**
 * check -> hold a day (Wait) -> ask the approver (callback Task: the token goes to
 * the `inbox` table; a day to answer) -> approved? pay -> Paid : Rejected (Fail).
 * No answer within the day fails the run with ApprovalTimedOut. The result of a run
 * is Pay's (a Choice passes its input on, so the chain's own output type is not it).
 */
export function approval(inbox: dynamodb.ITable): Definition<h.ExpenseClaim> {
  const check = new Task<h.ExpenseClaim, h.ExpenseClaim>('Check', { entry, handler: 'check' });
  // The submitter may still withdraw or amend the claim during the hold.
  const hold = new Wait<h.ExpenseClaim>('HoldOneDay', { time: WaitTime.duration(HOLD) });
  const ask = new Task<h.ExpenseClaim, h.ApprovedClaim>(ASK_APPROVER, {
    entry,
    handler: 'requestApproval',
    integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN,
    parameters: { 'token.$': '$$.Task.Token', 'claim.$': '$' },
    resultPath: '$.approval',
    timeout: ANSWER_WITHIN,
    environment: { APPROVAL_INBOX: inbox.tableName },
  }).addCatch(new Fail('NoAnswer', { error: 'ApprovalTimedOut', cause: 'the approver did not answer within a day' }), { errors: ['States.Timeout'] });
  const pay = new Task<h.ApprovedClaim, h.Payment>('Pay', { entry, handler: 'pay' });
  const decide = new Choice<h.ApprovedClaim>('Approved')
    .when(Condition.booleanEquals('$.approval.approved', true), pay.next(new Succeed('Paid')))
    .otherwise(new Fail('Rejected', { error: 'ExpenseRejected', cause: 'the approver rejected the claim' }));
  return Definition.from(check.next(hold).next(ask).next(decide));
}
