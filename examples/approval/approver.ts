/**
 * The approver's side of the Approval example, as an approver's tool would
 * do it: find a claim's request in the approvals inbox (the task token the
 * callback Task put there), answer it through the workflow's task-response
 * function (`sendTaskSuccess`), and take it out of the inbox. `npm run demo`
 * and the example's tests use it against the local engine; deployed, the
 * same calls go to the stack's inbox table and workflow (the caller needs
 * `grantTaskResponse` and read/write on the inbox).
 */
import { DeleteItemCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { UnumClient } from '../../lib/client';
import type { LocalEngine } from '../../lib/local/engine';
import type { Json } from '../../runtime/contract/ir';
import type { Approval, ExpenseClaim } from './handlers';
import { ASK_APPROVER } from './workflow';

/** The example's workflow name in examples/app.ts. */
export const APPROVAL_WORKFLOW = 'Approval';

export interface PendingApproval {
  readonly token: string;
  readonly claim: ExpenseClaim;
}

const POLL_MS = 100;

export class Approver {
  constructor(private readonly dynamo: DynamoDBClient, private readonly inbox: string, private readonly client: UnumClient) {}

  /** The claim's request once the callback Task has put it in the inbox (polled until `timeoutMs`). */
  async pending(claimId: string, timeoutMs = 60_000): Promise<PendingApproval> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { Item } = await this.dynamo.send(new GetItemCommand({ TableName: this.inbox, Key: { pk: { S: claimId } }, ConsistentRead: true }));
      if (Item?.token?.S && Item.claim?.S) return { token: Item.token.S, claim: JSON.parse(Item.claim.S) as ExpenseClaim };
      if (Date.now() > until) throw new Error(`no approval request for claim ${claimId} in ${this.inbox} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Answers the request (the run goes on with `approval` at `$.approval`) and clears it from the inbox. */
  async answer(request: PendingApproval, approval: Approval): Promise<void> {
    await this.client.sendTaskSuccess(request.token, approval as unknown as Json);
    await this.dynamo.send(new DeleteItemCommand({ TableName: this.inbox, Key: { pk: { S: request.claim.claimId } } }));
  }

  /** Closes the inbox client's connections. */
  close(): void {
    this.dynamo.destroy();
  }
}

/** An approver of the Approval workflow on the local engine: the inbox named in the callback Task's environment, the engine's endpoints. */
export function localApprover(engine: LocalEngine): Approver {
  const env = engine.environment;
  const fn = engine.app.functions.get(engine.workflow(APPROVAL_WORKFLOW).nodes[ASK_APPROVER]?.functionName ?? '');
  const inbox = fn?.environment.APPROVAL_INBOX;
  if (!inbox) throw new Error(`the ${ASK_APPROVER} function of ${APPROVAL_WORKFLOW} has no APPROVAL_INBOX in its environment`);
  const dynamo = new DynamoDBClient({
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID as string, secretAccessKey: env.AWS_SECRET_ACCESS_KEY as string },
  });
  return new Approver(dynamo, inbox, UnumClient.fromCloudAssembly(engine.app.dir, APPROVAL_WORKFLOW, { localEngine: env }));
}
