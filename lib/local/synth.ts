/**
 * Synthesizes a CDK app into a cloud assembly with the app's own CDK CLI
 * (`cdk synth --quiet -o <dir>`, the `aws-cdk` package installed in the app),
 * offline: no version check, no notices, no credentials (an env-agnostic
 * stack only needs a region).
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { UnumLocalError } from './errors';

export interface SynthOptions {
  /** Directory of the app's cdk.json. */
  readonly appDir: string;
  readonly outDir: string;
  readonly region?: string;
  /** CDK context values (`-c key=value`), e.g. to pick a variant of the app. @default none */
  readonly context?: Readonly<Record<string, string>>;
}

/** The `cdk` executable of the app's `aws-cdk` package. */
function cdkCli(appDir: string): string {
  try {
    return path.join(path.dirname(require.resolve('aws-cdk/package.json', { paths: [path.resolve(appDir)] })), 'bin', 'cdk');
  } catch {
    throw new UnumLocalError(`synthesizing ${path.join(appDir, 'cdk.json')} needs the AWS CDK CLI in the app (npm install --save-dev aws-cdk); or synthesize it yourself and pass the cloud assembly (--app cdk.out)`);
  }
}

export function synthesize(options: SynthOptions): Promise<string> {
  const cli = cdkCli(options.appDir);
  return new Promise((resolve, reject) => {
    const context = Object.entries(options.context ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
    const child = spawn(process.execPath, [cli, 'synth', '--quiet', '-o', options.outDir, ...context], {
      cwd: options.appDir,
      env: {
        ...process.env,
        CDK_DISABLE_VERSION_CHECK: '1',
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        AWS_REGION: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(options.outDir);
      else reject(new UnumLocalError(`cdk synth failed (exit ${code}):\n${output.trim()}`));
    });
  });
}
