/**
 * Figure 3: time for one function to launch N = 1,000 and 10,000 map
 * branches, in one run, against a server that answers Lambda's Invoke API
 * like Lambda does for `Event` invokes (202, in its own process), reached
 * through @aws-sdk/client-lambda:
 * - the runtime's launcher: `forEachLimit` (runtime/pool.ts) at the compiled
 *   default invokeConcurrency over `LambdaInvoker` (runtime/lambda-invoker.ts);
 * - the original implementation's sequential loop: one awaited invoke after another;
 * - and the whole origin execution through `createHandler` (run record,
 *   checkpoint, the fan-in's shards on DynamoDB Local, then the launches).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { compileWorkflow } from '../lib/compiler';
import { Definition, Map as MapState, Task } from '../lib/definition';
import { DynamoDbStore } from '../runtime/dynamodb-store';
import { createHandler } from '../runtime/handler';
import { ENVELOPE_VERSION, type Envelope, type NodeIR } from '../runtime/ir';
import { LambdaInvoker } from '../runtime/lambda-invoker';
import { invocationName } from '../runtime/naming';
import { forEachLimit } from '../runtime/pool';
import { checkpointKey } from '../runtime/table';
import { LOCAL_CREDENTIALS, REGION } from './resources';
import { fmt, fmtMs, median } from './stats';
import type { BenchContext, FigureOutput } from './types';

/** Lambda's Invoke API for Event invokes: 202 with no body. Counts what it accepted (GET /count). */
const SERVER = `
const http = require('http');
let count = 0;
const latency = Number(process.env.INVOKE_LATENCY_MS || 0);
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') { res.end(String(count)); return; }
  req.on('data', () => undefined);
  req.on('end', () => {
    const event = req.headers['x-amz-invocation-type'] === 'Event';
    if (event) count++;
    const reply = () => { res.statusCode = event ? 202 : 200; res.end(event ? '' : '{}'); };
    if (latency > 0) setTimeout(reply, latency); else reply();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

async function startServer(latencyMs: number): Promise<{ endpoint: string; count(): Promise<number>; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, INVOKE_LATENCY_MS: String(latencyMs) } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`invoke server exited (${code})`)));
    child.stdout?.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    count: async () => Number(await (await fetch(`${endpoint}/count`)).text()),
    stop: () => { child.stdin?.end(); },
  };
}

function branchEvent(workflowId: string, i: number, size: number): Envelope {
  return {
    unum: {
      v: ENVELOPE_VERSION, workflow: 'MapFanout', workflowId, node: 'Work', iteration: 0,
      fanOut: [{ index: i, size, kind: 'map', iteration: 0, origin: checkpointKey(invocationName({ workflow: 'MapFanout', workflowId }, 'Split', 0, [])) }],
      inputs: [{ value: { item: i } }],
    },
  };
}

/** The map origin's IR (Split -> Map[Work] -> Done), compiled with the defaults. */
function originIr(): NodeIR {
  const entry = '/bench/fixtures/chain-handlers.js';
  const split = new Task('Split', { entry, handler: 'step' });
  const map = new MapState('Fan', { itemsPath: '$.items' }).itemProcessor(new Task('Work', { entry, handler: 'step' }));
  const compiled = compileWorkflow('MapFanout', Definition.from(split.next(map).next(new Task('Done', { entry, handler: 'step' }))));
  const names = Object.fromEntries(Object.keys(compiled.nodes).map((n) => [n, `fn-${n}`]));
  return { ...compiled.nodes.Split.ir, functionNames: names };
}

/**
 * Added per invoke by the second server: the modelled latency of one call from
 * Lambda in one region (the same figure `unum cost` models durations with).
 * On loopback the launch is CPU-bound and concurrency cannot help.
 */
const LATENCIES_MS = [0, 5];

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const sizes = ctx.quick ? [1000] : [1000, 10_000];
  const reps = (n: number): number => (ctx.quick ? 3 : n >= 10_000 ? 3 : 5);
  const ir = originIr();
  const concurrency = ir.settings.invokeConcurrency;
  const dyn = await ctx.resources.dynamo();
  const table = await dyn.table('mapfanout');
  const rows: (string | number)[][] = [];
  for (const latencyMs of LATENCIES_MS) {
    const server = await startServer(latencyMs);
    ctx.resources.onStop(() => server.stop());
    const lambda = new LambdaClient({ endpoint: server.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
    ctx.resources.onStop(() => lambda.destroy());
    const invoker = new LambdaInvoker(lambda);
    const origin = createHandler({ step: (x: unknown) => x }, { ir, store: new DynamoDbStore(table, dyn.client()), invoker });

    const launch = async (n: number, mode: 'concurrent' | 'sequential'): Promise<number> => {
      const workflowId = `bench-${randomUUID()}`;
      const before = await server.count();
      const t0 = performance.now();
      if (mode === 'concurrent') {
        await forEachLimit(Array.from({ length: n }, (_, i) => i), concurrency, (i) => invoker.invoke('fn-Work', branchEvent(workflowId, i, n)));
      } else {
        for (let i = 0; i < n; i++) await invoker.invoke('fn-Work', branchEvent(workflowId, i, n));
      }
      const ms = performance.now() - t0;
      const accepted = (await server.count()) - before;
      if (accepted !== n) throw new Error(`${mode} launch of ${n}: the server accepted ${accepted} invokes`);
      return ms;
    };
    const originRun = async (n: number): Promise<number> => {
      const before = await server.count();
      const deadline = Date.now() + 300_000;
      const t0 = performance.now();
      await origin({ workflowId: `bench-${randomUUID()}`, input: { items: Array.from({ length: n }, (_, i) => i) } },
        { awsRequestId: randomUUID(), functionName: 'fn-Split', getRemainingTimeInMillis: () => deadline - Date.now() });
      const ms = performance.now() - t0;
      const accepted = (await server.count()) - before;
      if (accepted !== n) throw new Error(`origin execution of ${n}: the server accepted ${accepted} invokes`);
      return ms;
    };

    await launch(500, 'concurrent'); // warm-up: sockets, JIT
    await launch(100, 'sequential');
    await originRun(100);
    for (const n of sizes) {
      const conc: number[] = [];
      const seq: number[] = [];
      const org: number[] = [];
      for (let r = 0; r < reps(n); r++) {
        // Alternate the order so neither mode always runs on a warmer machine.
        if (r % 2 === 0) { conc.push(await launch(n, 'concurrent')); seq.push(await launch(n, 'sequential')); }
        else { seq.push(await launch(n, 'sequential')); conc.push(await launch(n, 'concurrent')); }
        org.push(await originRun(n));
      }
      const speedup = median(seq) / median(conc);
      ctx.log(`fan-out ${n} (+${latencyMs} ms): concurrent ${fmtMs(median(conc))}, sequential ${fmtMs(median(seq))}, origin ${fmtMs(median(org))}`);
      rows.push([fmt(n, 0), latencyMs === 0 ? 'loopback, none added' : `${latencyMs} ms added per invoke`, reps(n), fmtMs(median(conc)), fmt((n / median(conc)) * 1000, 0),
        fmtMs(median(seq)), fmt((n / median(seq)) * 1000, 0), `${fmt(speedup, 2)}x`, fmtMs(median(org))]);
    }
  }
  return {
    tables: [{
      caption: `Launching N map branches from one function (median of the runs shown; concurrency ${concurrency}, the compiled default)`,
      headers: ['N', 'Invoke latency', 'Runs', 'Runtime launcher (concurrent, bounded)', 'invokes/s', 'Sequential loop (original)', 'invokes/s', 'Speed-up', 'Whole origin execution (checkpoint + shards + launches)'],
      rows,
    }],
    method: [
      'The invoke endpoint is a separate Node.js process answering `POST /2015-03-31/functions/<name>/invocations` with 202 as Lambda does for `InvocationType: Event`; it counts what it accepted and every launch is checked to have delivered N invokes.',
      `Two endpoints: loopback as is, and one that holds each reply ${LATENCIES_MS[1]} ms (the modelled in-region call latency \`unum cost\` uses); on loopback the launch is bound by this process's CPU (SDK serialisation and signing), so the first rows measure CPU cost and the second the effect of overlapping round trips.`,
      `Both launchers send the same envelopes through runtime/lambda-invoker.ts (one LambdaClient with the SDK's default HTTP agent). The runtime launcher is runtime/pool.ts \`forEachLimit\` at ${concurrency} in flight; the sequential loop awaits each invoke before the next, as the original Unum implementation's fan-out did.`,
      'Whole origin execution: the compiled map origin node run through `createHandler` with the DynamoDB store on DynamoDB Local (run record, checkpoint of the items, N/128 fan-in shards created and re-checked) and the same invoker.',
      'The two modes alternate order across runs, in the same process and run.',
    ],
  };
}
