/** Invoker on Lambda's async Invoke (`InvocationType: 'Event'`), default client config (AWS_ENDPOINT_URL_LAMBDA works). */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Envelope } from '../contract/ir';
import type { Invoker } from '../ports/invoker';

export class LambdaInvoker implements Invoker {
  private readonly client: LambdaClient;

  constructor(client?: LambdaClient) {
    this.client = client ?? new LambdaClient({});
  }

  async invoke(functionName: string, event: Envelope): Promise<void> {
    await this.client.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(event)) }),
    );
  }
}
