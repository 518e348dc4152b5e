#!/usr/bin/env node
// Runs the compiled CLI when the package is built, otherwise the TypeScript sources (a fresh clone).
const path = require('path');
const fs = require('fs');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const compiled = path.join(__dirname, '..', 'dist', 'bin', 'cli.js');
if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', 'tsconfig.json') });
  require('./cli.ts');
}
