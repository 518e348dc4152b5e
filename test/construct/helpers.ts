import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { UnumWorkflow } from '../../lib/construct';
import type { UnumWorkflowProps } from '../../lib/construct';

export const STACK_NAME = 'Test';

/** A stack with one workflow; the stack is env-agnostic, as in the example app. */
export function synthWorkflow(props: UnumWorkflowProps, id = 'Flow'): { stack: Stack; workflow: UnumWorkflow; template: Template } {
  const app = new App();
  const stack = new Stack(app, STACK_NAME);
  const workflow = new UnumWorkflow(stack, id, props);
  return { stack, workflow, template: Template.fromStack(stack) };
}

/**
 * Asset hashes depend on the bundled code and esbuild's version, and so do the
 * deployment id, the logical ids that carry it (with their hash suffix) and
 * the functions' version ids: replace them in snapshots.
 */
export function normaliseHashes<T>(value: T): T {
  const text = JSON.stringify(value)
    .replace(/[0-9a-f]{64}/g, '<asset-hash>')
    .replace(/CurrentVersion[0-9A-F]{8}[0-9a-f]{32}/g, 'CurrentVersion<hash>')
    .replace(/d[0-9a-f]{20}(?:([A-Za-z]*?)[0-9A-F]{8}(?![0-9A-Za-z]))?/g, '<deployment>$1');
  return JSON.parse(text) as T;
}

/** `lambda:InvokeFunction` ARN of a function, as formatArn renders it. */
export function lambdaArn(functionName: string): unknown {
  return {
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${functionName}`],
    ],
  };
}

/**
 * The cdk-nag AwsSolutions findings of the app `build` fills (error findings
 * make its synth throw; warnings are only in the report). The app is made
 * here, with the checks added before anything is built: an app is
 * synthesized once (`Template.fromStack` does it too), so checks added
 * after that would never run.
 */
export function nagFindings(build: (app: App) => void): unknown[] {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'unum-nag-')) });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  build(app);
  const assembly = app.synth();
  const report = JSON.parse(fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as {
    pluginReports: Array<{ violations: unknown[] }>;
  };
  return report.pluginReports.flatMap((r) => r.violations);
}

/** Runs cfn-lint on every template of the app (W3005 is a usual CDK false positive); throws on a finding. */
export function cfnLint(app: App): void {
  const assembly = app.synth();
  const templates = assembly.stacks.map((s) => path.join(assembly.directory, s.templateFile));
  execFileSync('cfn-lint', ['--ignore-checks', 'W3005', '--', ...templates], { encoding: 'utf8' });
}

/** The policy statements attached to a role (its logical id, or a pattern of it). */
export function roleStatements(template: Template, roleId: string | object): Array<Record<string, unknown>> {
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap((p) => p.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
}

/** The policy statements attached to the role of one node. */
export function statementsOf(template: Template, workflow: UnumWorkflow, node: string): Array<Record<string, unknown>> {
  const role = workflow.functions[node].role as iam.Role;
  return roleStatements(template, Stack.of(workflow).resolve((role.node.defaultChild as iam.CfnRole).logicalId) as string);
}

export function invokeResources(statements: Array<Record<string, unknown>>): unknown[] {
  return statements
    .filter((s) => s.Action === 'lambda:InvokeFunction')
    .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
}

/** `lambdaArn` of a function's alias of a deployment (`name:<deployment>`), as the construct writes it from the name. */
export function aliasArn(functionName: string, deployment: string): unknown {
  return lambdaArn(`${functionName}:${deployment}`);
}

/** What `grantStart` grants: the entry function's `live` alias. */
export function liveArnOf(fn: lambda.IFunction): unknown {
  return { 'Fn::Join': ['', [Stack.of(fn).resolve(fn.functionArn), ':live']] };
}

/** The `Async` settings the deployment's custom resource puts on the alias of the function of this name. */
export function asyncOf(template: Template, functionName: string): unknown {
  const [record] = Object.values(template.findResources('Custom::UnumDeployment'));
  return (record.Properties.Functions as Array<{ FunctionName: string; Async?: unknown }>).find((f) => f.FunctionName === functionName)?.Async;
}

/** What `grantRedrive`, `grantRecover` and `grantTaskResponse` grant on a function: any of its aliases. */
export function anyAliasOf(fn: lambda.IFunction): unknown {
  return { 'Fn::Join': ['', [Stack.of(fn).resolve(fn.functionArn), ':*']] };
}

/** `lambdaArn` of a function's alias of some deployment (`name:d<20 hex>`). */
export function deploymentAliasArn(functionName: string): unknown {
  const escaped = functionName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, expect.stringMatching(new RegExp(`^:function:${escaped}:d[0-9a-f]{20}$`))],
    ],
  };
}
