process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.CDK_DISABLE_VERSION_CHECK = '1';
process.env.AWS_REGION = process.env.AWS_REGION || 'us-east-1';

// CDK prints a progress line for each asset it bundles ("Bundling asset <path>..."), straight to stderr: keep test output readable.
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) =>
  typeof chunk === 'string' && /^Bundling asset [^\n]*\.\.\.\n$/.test(chunk) ? true : writeStderr(chunk, ...rest);
