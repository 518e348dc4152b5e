// A user's script (or test) on the local engine: start it for the synthesized app, run the workflow under a fault seed.
const { startLocalEngine } = require('unum-cdk/local');

async function main() {
  const engine = await startLocalEngine({ app: 'cdk.out' });
  try {
    const run = await engine.run('Shouter', { text: 'a b c' }, { faults: 5 });
    process.stdout.write(`${JSON.stringify({ status: run.status, result: run.result, executions: run.timeline.length, violations: run.faults.violations })}\n`);
  } finally {
    await engine.stop();
  }
}
main().catch((err) => { console.error(err); process.exitCode = 1; });
