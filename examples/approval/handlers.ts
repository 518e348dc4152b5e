/**
 * Expense approval: `check` validates a claim; after a day's hold the claim
 * goes to an approver with a task token (`requestApproval` puts it in the
 * approvals inbox, a DynamoDB table the approver's tool reads); the run waits,
 * with nothing running, until the approver answers through the task-response
 * function (`sendTaskSuccess`). `pay` pays an approved claim.
 */
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';

export interface ExpenseClaim {
  readonly claimId: string;
  readonly employee: string;
  readonly amountCents: number;
  readonly description: string;
}

/** What the approver sends back with `sendTaskSuccess`. */
export interface Approval {
  readonly approved: boolean;
  readonly approver: string;
  readonly note?: string;
}

export interface ApprovedClaim extends ExpenseClaim {
  readonly approval: Approval;
}

export interface Payment {
  readonly claimId: string;
  readonly employee: string;
  readonly paidCents: number;
  readonly approver: string;
  readonly reference: string;
}

/** What the callback Task's handler gets: its task token (`$$.Task.Token`) and the claim. */
export interface ApprovalRequest {
  readonly token: string;
  readonly claim: ExpenseClaim;
}

/** Claims above this need a director, not this workflow. */
const MAX_CLAIM_CENTS = 500_000;

export async function check(claim: ExpenseClaim): Promise<ExpenseClaim> {
  if (typeof claim?.claimId !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(claim.claimId)) throw new TypeError('claimId must be 1-64 letters, digits or dashes');
  if (!Number.isSafeInteger(claim.amountCents) || claim.amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
  if (claim.amountCents > MAX_CLAIM_CENTS) throw new RangeError(`claims over ${MAX_CLAIM_CENTS / 100} need a director's approval`);
  return { claimId: claim.claimId, employee: claim.employee, amountCents: claim.amountCents, description: claim.description.trim() };
}

let dynamo: DynamoDBClient | undefined;

/**
 * Hands the token to the approver: one item per claim in the approvals inbox
 * (APPROVAL_INBOX). Every execution of this invocation gets the same token,
 * so a second put (a Lambda retry) writes the same item again.
 */
export async function requestApproval(input: ApprovalRequest): Promise<void> {
  const inbox = process.env.APPROVAL_INBOX;
  if (!inbox) throw new Error('APPROVAL_INBOX is not set: the approvals inbox table');
  dynamo ??= new DynamoDBClient({});
  await dynamo.send(new PutItemCommand({
    TableName: inbox,
    Item: { pk: { S: input.claim.claimId }, token: { S: input.token }, claim: { S: JSON.stringify(input.claim) } },
  }));
}

export async function pay(claim: ApprovedClaim): Promise<Payment> {
  return { claimId: claim.claimId, employee: claim.employee, paidCents: claim.amountCents, approver: claim.approval.approver, reference: `pay-${claim.claimId}` };
}
