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

/** A stubbed function: its answer to a synchronous invoke (ignored for an Event one), and the Invoke's `Qualifier`. */
export type StubFunction = (payload: unknown, qualifier?: string) => Promise<unknown>;

/**
 * An Event invocation runs its function after the 202 is sent, as Lambda
 * runs one after accepting it; a RequestResponse one answers with what the
 * function returns, or with a function error (`X-Amz-Function-Error`)
 * carrying what it threw. Functions are found by the name the Invoke gives
 * (a qualified `name:alias` is its own entry; a `Qualifier` is passed on,
 * not resolved), looked up at each invoke. Unknown functions get a 404.
 */
export async function startLambdaStub(functions: Record<string, StubFunction>): Promise<LambdaStub> {
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
      if (invocationType === 'RequestResponse') {
        void handler(payload, qualifier).then(
          (answer) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(answer ?? null)); },
          (err: unknown) => {
            res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' });
            res.end(JSON.stringify({ errorType: err instanceof Error ? err.name : 'Error', errorMessage: err instanceof Error ? err.message : String(err) }));
          },
        );
        return;
      }
      res.writeHead(202);
      res.end();
      void handler(payload, qualifier).catch(() => undefined);
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
