#!/usr/bin/env node
// `npm run test:faults -- --seeds N`: the long fault campaign (test/faults/campaign.ts), from the TypeScript sources.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_EC2_METADATA_DISABLED ??= 'true';
process.env.CDK_DISABLE_VERSION_CHECK ??= '1';
process.env.AWS_REGION ??= 'us-east-1';
require('ts-node').register({ transpileOnly: true, project: require('path').join(__dirname, '..', 'tsconfig.json') });
require('../test/faults/campaign').main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err); process.exitCode = 1; },
);
