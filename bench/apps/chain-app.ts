/**
 * The CDK app of the synth and overhead benchmarks: a chain of
 * UNUM_BENCH_TASKS Tasks in one UnumWorkflow (stack UnumBench); with
 * UNUM_BENCH_PLAIN_DIR set, also the same number of plain functions chained
 * by async invokes (figure 4's baseline), whose bundle is built into that directory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, Task } from '../../lib/definition';
import { NODE_BUNDLE } from '../node-bundle';

const n = Number(process.env.UNUM_BENCH_TASKS ?? '10');
const entry = path.join(__dirname, '..', 'fixtures', 'chain-handlers.ts');

/** UNUM_BENCH_STACKS > 1 splits the Tasks into that many chains, one workflow per stack (CloudFormation allows 500 resources per stack). */
const stacks = Number(process.env.UNUM_BENCH_STACKS ?? '1');

const app = new App();
const stack = new Stack(app, 'UnumBench');
for (let k = 0; k < stacks; k++) {
  const size = Math.ceil(n / stacks);
  const count = Math.min(size, n - k * size);
  const tasks = Array.from({ length: count }, (_, i) => new Task(`S${i}`, { entry, handler: 'step' }));
  for (let i = 1; i < count; i++) tasks[i - 1].next(tasks[i]);
  const scope = k === 0 ? stack : new Stack(app, `UnumBench${k}`);
  new UnumWorkflow(scope, 'Chain', { definition: Definition.from(tasks[0]), workflowName: stacks === 1 ? `Chain${n}` : `Chain${count}x${k}` });
}

const plainDir = process.env.UNUM_BENCH_PLAIN_DIR;
if (plainDir) {
  fs.mkdirSync(plainDir, { recursive: true });
  buildSync({
    ...NODE_BUNDLE,
    entryPoints: [path.join(__dirname, '..', 'fixtures', 'plain-chain.ts')],
    outfile: path.join(plainDir, 'index.js'),
  });
  const name = (i: number): string => `UnumBench-Plain${i}`;
  for (let i = 0; i < n; i++) {
    new LambdaFunction(stack, `Plain${i}`, {
      functionName: name(i),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: Code.fromAsset(plainDir),
      memorySize: 256,
      timeout: Duration.seconds(30),
      environment: i + 1 < n ? { NEXT: name(i + 1) } : {},
    });
  }
}

app.synth();
