#!/usr/bin/env node
// The `unum` command. Installed, it runs the compiled CLI (dist/); in a checkout of the
// repository, where bin/cli.ts exists, the TypeScript sources, so it never runs a stale build.
const path = require('path');
const fs = require('fs');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const source = path.join(__dirname, 'cli.ts');
if (fs.existsSync(source)) {
  require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', 'tsconfig.json') });
  require(source);
} else {
  require(path.join(__dirname, '..', 'dist', 'bin', 'cli.js'));
}
