/**
 * Synthesizes a CDK app into a cloud assembly with the project's pinned CDK CLI
 * (`npx cdk synth --quiet -o <dir>`), offline: no version check, no notices,
 * no credentials (an env-agnostic stack only needs a region).
 */
import { spawn } from 'child_process';

export interface SynthOptions {
  /** Directory of the app's cdk.json. */
  readonly appDir: string;
  readonly outDir: string;
  readonly region?: string;
}

export function synthesize(options: SynthOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'cdk', 'synth', '--quiet', '-o', options.outDir], {
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
      else reject(new Error(`cdk synth failed (exit ${code}):\n${output.trim()}`));
    });
  });
}
