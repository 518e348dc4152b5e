#!/usr/bin/env node
// Runs a repository-only command from the TypeScript sources: `node scripts/run-ts.js <module> [args]`
// calls the module's `main(argv)` and exits with the code it returns. `npm run demo`, `npm run bench`
// and `npm run test:faults` are such commands; they are not part of the published `unum` CLI.
const path = require('path');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_EC2_METADATA_DISABLED ??= 'true';
process.env.CDK_DISABLE_VERSION_CHECK ??= '1';
process.env.AWS_REGION ??= 'us-east-1';
const root = path.join(__dirname, '..');
require('ts-node').register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
const [modulePath, ...argv] = process.argv.slice(2);
const { UsageError } = require('../lib/cli/argv');
require(path.resolve(root, modulePath)).main(argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // A bad command line exits 2 with its message, as in the `unum` commands; anything else shows its stack.
    console.error(err instanceof UsageError ? err.message : err);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
