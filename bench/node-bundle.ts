/**
 * esbuild settings of the benchmarks' hand-built bundles (the runtime alone,
 * figure 4's plain functions), matching the construct's defaults: minified
 * CommonJS for node22 with the AWS SDK left to the Lambda runtime. Without the
 * construct's source map: a separate file that changes neither the code nor
 * its speed (figure 6 measures what it costs).
 */
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  external: ['@aws-sdk/*'],
  logLevel: 'silent',
};
