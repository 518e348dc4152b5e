/**
 * Runs a compiled chain through the real runtime in this process:
 * `createHandler` per node with the DynamoDB store (on an instrumented client)
 * and an invoker that queues Event invokes, delivered one at a time, so every
 * DynamoDB call and invoke is attributed to the execution that made it.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { compileWorkflow } from '../lib/compiler';
import { Definition, Task } from '../lib/definition';
import { DynamoDbStore } from '../runtime/aws/dynamodb-store';
import { createHandler, type LambdaHandler } from '../runtime/entry/handler';
import type { Envelope, NodeIR } from '../runtime/contract/ir';
import type { Invoker } from '../runtime/ports/invoker';
import type { CallLog, ObservedCall } from './calls';
import { step } from './fixtures/chain-handlers';
import { testEnvelopeKey } from '../test/support/envelope-key';

export interface Sent {
  readonly functionName: string;
  readonly event: Envelope;
  /** Position in the call log's sequence: calls before it were on the critical path. */
  readonly seq: number;
}

export class QueueInvoker implements Invoker {
  readonly queue: Sent[] = [];
  constructor(private readonly log: CallLog) {}

  async invoke(functionName: string, event: Envelope): Promise<void> {
    this.queue.push({ functionName, event: JSON.parse(JSON.stringify(event)) as Envelope, seq: this.log.next() });
  }
}

export interface Execution {
  readonly node: string;
  readonly calls: readonly ObservedCall[];
  readonly invokes: readonly Sent[];
  readonly ms: number;
}

/** The IR of every node of a chain of `n` Tasks (S0 ... S<n-1>), with function names `fn-<node>`. */
export function chainIr(n: number): Record<string, NodeIR> {
  const tasks = Array.from({ length: n }, (_, i) => new Task(`S${i}`, { entry: '/bench/fixtures/chain-handlers.js', handler: 'step' }));
  for (let i = 1; i < n; i++) tasks[i - 1].next(tasks[i]);
  const compiled = compileWorkflow(`Chain${n}`, Definition.from(tasks[0]));
  const names = Object.fromEntries(Object.keys(compiled.nodes).map((node) => [node, `fn-${node}`]));
  return Object.fromEntries(Object.entries(compiled.nodes).map(([node, c]) => [node, { ...c.ir, functionNames: names }]));
}

export class ChainDriver {
  readonly invoker: QueueInvoker;
  private readonly handlers = new Map<string, { node: string; handler: LambdaHandler }>();

  constructor(readonly log: CallLog, client: DynamoDBClient, table: string, irs: Record<string, NodeIR>) {
    this.invoker = new QueueInvoker(log);
    const store = new DynamoDbStore(table, client);
    for (const [node, ir] of Object.entries(irs)) {
      this.handlers.set(`fn-${node}`, { node, handler: createHandler({ step }, { envelopeKey: testEnvelopeKey, ir, store, invoker: this.invoker }) });
    }
  }

  /** Runs one workflow to its end, one execution at a time; returns every execution in order. */
  async run(entryFunction: string, input: unknown): Promise<Execution[]> {
    const workflowId = `bench-${randomUUID()}`;
    const out: Execution[] = [];
    let next: { functionName: string; event: unknown } | undefined = { functionName: entryFunction, event: { workflowId, input } };
    while (next) {
      const h = this.handlers.get(next.functionName);
      if (!h) throw new Error(`no function ${next.functionName}`);
      const callsFrom = this.log.calls.length;
      const sentFrom = this.invoker.queue.length;
      const deadline = Date.now() + 30_000;
      const t0 = performance.now();
      await h.handler(next.event, { awsRequestId: randomUUID(), functionName: next.functionName, getRemainingTimeInMillis: () => deadline - Date.now() });
      const ms = performance.now() - t0;
      const invokes = this.invoker.queue.slice(sentFrom);
      out.push({ node: h.node, calls: this.log.calls.slice(callsFrom), invokes, ms });
      if (invokes.length > 1) throw new Error('a chain node invoked more than one successor');
      next = invokes[0];
    }
    this.invoker.queue.length = 0;
    return out;
  }
}
