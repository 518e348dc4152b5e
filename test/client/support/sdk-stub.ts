/**
 * SDK clients without a network for the client's unit tests: a DynamoDB
 * client that serves GetItem and BatchGetItem from fixed items, and a Lambda
 * client that records each Invoke's input and answers as told.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { type Item, keyOf } from '../../../runtime/contract/table';

interface Command { readonly constructor: { readonly name: string }; readonly input: Record<string, unknown> }

/** Reads of `items` (by their key); any other command fails the test. */
export function stubDynamo(items: readonly Item[]): DynamoDBClient {
  const byKey = new Map(items.map((i) => [keyOf(i), i]));
  const send = async (command: Command): Promise<unknown> => {
    if (command.constructor.name === 'GetItemCommand') return { Item: byKey.get((command.input.Key as Item).pk.S) };
    if (command.constructor.name === 'BatchGetItemCommand') {
      const [[table, { Keys }]] = Object.entries(command.input.RequestItems as Record<string, { Keys: Item[] }>);
      return { Responses: { [table]: Keys.map((k) => byKey.get(k.pk.S)).filter((i): i is Item => i !== undefined) } };
    }
    throw new Error(`unexpected ${command.constructor.name}`);
  };
  return { send } as unknown as DynamoDBClient;
}

/** What an Invoke named: the function, its qualifier and its payload (JSON). */
export interface StubInvoke {
  readonly functionName: string;
  readonly qualifier?: string;
  readonly invocationType?: string;
  readonly payload: unknown;
}

/** A Lambda client recording every Invoke; `answer` is the payload a RequestResponse invoke returns. */
export function stubLambda(answer: unknown = null): { client: LambdaClient; invokes: StubInvoke[] } {
  const invokes: StubInvoke[] = [];
  const send = async (command: Command): Promise<unknown> => {
    const { FunctionName, Qualifier, InvocationType, Payload } = command.input as { FunctionName: string; Qualifier?: string; InvocationType?: string; Payload: Uint8Array };
    invokes.push({
      functionName: FunctionName,
      ...(Qualifier === undefined ? {} : { qualifier: Qualifier }),
      ...(InvocationType === undefined ? {} : { invocationType: InvocationType }),
      payload: JSON.parse(Buffer.from(Payload).toString('utf8')),
    });
    return { StatusCode: 200, Payload: Buffer.from(JSON.stringify(answer)) };
  };
  return { client: { send } as unknown as LambdaClient, invokes };
}
