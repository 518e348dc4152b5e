// Runs the synthesized app (cdk.out) on the local engine: once as a test would (startLocalEngine),
// once under a fault schedule of unum-cdk/testing, and through the client, made both ways the README
// shows. Prints one JSON line with what each gave.
import { UnumClient, type Json } from 'unum-cdk/client';
import { startLocalEngine } from 'unum-cdk/local';
import { randomFaults } from 'unum-cdk/testing';

const ORDER: Json = { id: 'o-1', lines: [{ sku: 'a', qty: 2, cents: 300 }, { sku: 'b', qty: 1, cents: 450 }] };

async function main(): Promise<void> {
  const engine = await startLocalEngine({ app: 'cdk.out' });
  try {
    const run = await engine.run('Shipping', ORDER);
    const faulted = await engine.run('Shipping', ORDER, { faults: randomFaults(3) });

    const fromAssembly = UnumClient.fromCloudAssembly('cdk.out', 'Shipping', { localEngine: engine.engine.environment });
    const viaAssembly = await fromAssembly.startAndWait(ORDER);

    // As `unum local start` users do: the engine's settings in the environment, the names it printed.
    Object.assign(process.env, engine.engine.environment);
    const shipping = engine.engine.workflows.find((w) => w.name === 'Shipping');
    if (!shipping) throw new Error('no Shipping workflow in cdk.out');
    const client = UnumClient.forWorkflow({ workflow: shipping.name, entryFunction: shipping.entryFunction, table: shipping.tableName });
    const viaClient = await client.startAndWait(ORDER);
    const status = await client.status(viaClient.workflowId);

    console.log(JSON.stringify({
      status: run.status,
      result: run.result,
      nodes: run.timeline.map((e) => e.node).sort(),
      faulted: { result: faulted.result, violations: faulted.faults?.violations, seed: faulted.faults?.seed },
      viaAssembly: viaAssembly.result,
      viaClient: viaClient.result,
      clientStatus: status.status,
    }));
  } finally {
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
