/**
 * A tiny Lambda Invoke API stub (TOOLCHAIN.md, "Lambda Invoke API emulation")
 * reached through the real @aws-sdk/client-lambda.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LambdaClient } from '@aws-sdk/client-lambda';

export interface Invocation {
  /** As the Invoke named it: a qualified name `name:alias` names its alias here. */
  readonly functionName: string;
  /** The Invoke's `Qualifier`, when it gave one. */
  readonly qualifier?: string;
  readonly invocationType: string;
  readonly payload: unknown;
}

export interface LambdaStub {
  readonly endpoint: string;
  readonly client: LambdaClient;
  readonly invocations: Invocation[];
  stop(): Promise<void>;
}

/**
 * `onEvent` runs for each invocation after the 202 is sent, as Lambda runs an
 * Event invocation after accepting it. Functions are found by the name the
 * Invoke gives (a qualified `name:alias` is its own entry; a `Qualifier` is
 * recorded, not resolved). Unknown functions get a 404.
 */
export async function startLambdaStub(functions: Record<string, (payload: unknown) => Promise<void>>): Promise<LambdaStub> {
  const invocations: Invocation[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
      const functionName = decodeURIComponent(m?.[1] ?? '');
      const qualifier = new URL(req.url ?? '', 'http://stub').searchParams.get('Qualifier') ?? undefined;
      const handler = functions[functionName];
      if (!handler) {
        res.writeHead(404, { 'x-amzn-ErrorType': 'ResourceNotFoundException', 'content-type': 'application/json' });
        res.end(JSON.stringify({ Type: 'User', Message: `Function not found: ${functionName}` }));
        return;
      }
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
      const invocationType = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
      invocations.push({ functionName, ...(qualifier === undefined ? {} : { qualifier }), invocationType, payload });
      res.writeHead(202);
      res.end();
      void handler(payload).catch(() => undefined);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new LambdaClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return {
    endpoint,
    client,
    invocations,
    stop: async () => {
      client.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
