/**
 * The waiting records of callback Tasks (runtime/contract/table/ `TaskWait`) on the
 * workflow's DynamoDB table: bundled only into callback Tasks' functions.
 */
import { GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { conditional } from '../aws/dynamodb-store';
import { runtimeError } from '../contract/errors';
import type { DynamoDbTarget } from '../ports/store';
import { decodeHeartbeats, decodeTaskWait, keyItem, taskHeartbeat, type TaskWait, taskWaitKey, taskWaitPut } from '../contract/table';
import type { Runtime } from '../ports/execution';

export class TaskWaits {
  constructor(private readonly table: DynamoDbTarget) {}

  /** Conditional put: undefined when this call recorded the wait, else the one recorded first. */
  put(invocation: string, wait: TaskWait, ttl: number): Promise<TaskWait | undefined> {
    const { client, tableName } = this.table;
    const put = new PutItemCommand({ TableName: tableName, ...taskWaitPut(invocation, wait, ttl), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });
    return conditional(client.send(put).then(() => undefined), async (e) => decodeTaskWait(e.Item) ?? this.get(invocation));
  }

  /** Consistent read. */
  async get(invocation: string): Promise<TaskWait | undefined> {
    const { client, tableName } = this.table;
    return decodeTaskWait((await client.send(new GetItemCommand({ TableName: tableName, Key: keyItem(taskWaitKey(invocation)), ConsistentRead: true }))).Item);
  }

  /** Counts a heartbeat; the count so far, undefined when the record is gone. */
  beat(invocation: string): Promise<number | undefined> {
    const { client, tableName } = this.table;
    const update = new UpdateItemCommand({ TableName: tableName, ...taskHeartbeat(invocation), ReturnValues: 'UPDATED_NEW' });
    return conditional(client.send(update).then((r) => decodeHeartbeats(r.Attributes)), () => undefined);
  }
}

/** The waiting records, in the workflow's table: a callback Task needs its store on DynamoDB. */
export function taskWaits(rt: Runtime): TaskWaits {
  if (!rt.store.dynamoDb) throw runtimeError(`node ${rt.ir.node}: a callback Task needs its store on DynamoDB`);
  return new TaskWaits(rt.store.dynamoDb);
}
