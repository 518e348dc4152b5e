process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.CDK_DISABLE_VERSION_CHECK = '1';
process.env.AWS_REGION = process.env.AWS_REGION || 'us-east-1';

// aws-cdk-lib validates every template it synthesizes (a WebAssembly CloudFormation linter): several seconds of
// CPU per synthesis, in nearly every test file. Tests synthesize hundreds of apps, so it is off here, and on where
// it checks something: test/construct/examples-stack.int.test.ts runs it on the example app, and the consumer test's
// app synthesizes as a user's does. cfn-lint runs in the construct tests either way.
process.env.CDK_VALIDATION = process.env.CDK_VALIDATION || 'false';

// CDK prints a progress line for each asset it bundles ("Bundling asset <path>..."), straight to stderr: keep test output readable.
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) =>
  typeof chunk === 'string' && /^Bundling asset [^\n]*\.\.\.\n$/.test(chunk) ? true : writeStderr(chunk, ...rest);

// DynamoDB Local lives for one test file: its JVM's optimizing compiler (C2) and parallel collector cost more CPU
// than they give back in so short a life (about 30 % of a fault-test file's CPU and wall time on 2 cores).
process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC'].filter(Boolean).join(' ');
