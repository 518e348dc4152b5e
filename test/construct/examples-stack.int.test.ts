import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ExamplesStack } from '../../examples/app';
import { normaliseHashes } from './helpers';

function synthExamples(outdir?: string): { app: App; stack: ExamplesStack } {
  const app = new App(outdir ? { outdir } : {});
  const stack = new ExamplesStack(app, 'UnumExamples');
  return { app, stack };
}

describe('example app', () => {
  const { stack } = synthExamples();
  const template = Template.fromStack(stack);

  test('template snapshot (asset hashes normalised)', () => {
    expect(normaliseHashes(template.toJSON())).toMatchSnapshot();
  });

  test('asset hashes are content hashes: identical in a second synth', () => {
    const keys = (t: Template): string[] =>
      Object.values(t.findResources('AWS::Lambda::Function')).map((r) => r.Properties.Code.S3Key as string);
    const first = keys(template);
    for (const key of first) expect(key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect(keys(Template.fromStack(synthExamples().stack))).toEqual(first);
  });

  test('five workflows, the loop one with recursion allowed', () => {
    expect(stack.workflows.map((w) => w.workflowName)).toEqual(['TextPipeline', 'WordCount', 'Collatz', 'Orders', 'Approval']);
    const collatz = stack.workflows[2];
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `UnumExamples-${collatz.workflowName}-Step`,
      RecursiveLoop: 'Allow',
    });
  });

  test('the Orders example\'s PlaceOrder may write the ledger, and no other function may', () => {
    const ledger = Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => id.startsWith('Ledger'));
    expect(ledger).toBeDefined();
    const writers = Object.entries(template.findResources('AWS::IAM::Policy'))
      .filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes(`"${ledger}"`))
      .map(([id]) => id);
    expect(writers).toEqual([expect.stringMatching(/^OrdersNodesPlaceOrderRole/)]);
  });

  test('the Approval example\'s callback Task may write the approvals inbox, and no other function may; it has a task-response function', () => {
    const inbox = Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => id.startsWith('ApprovalInbox'));
    expect(inbox).toBeDefined();
    const writers = Object.entries(template.findResources('AWS::IAM::Policy'))
      .filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes(`"${inbox}"`))
      .map(([id]) => id);
    expect(writers).toEqual([expect.stringMatching(/^ApprovalNodesAskApproverRole/)]);
    template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'UnumExamples-Approval-unum-task-response' });
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'UnumExamples-Approval-waits' });
  });
});

/** The violations in the synthesized app's validation report (a conformant app gets no plugin report at all). */
function reportedViolations(app: App): Array<{ ruleName: string }> {
  const assembly = app.synth();
  const report = JSON.parse(fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as {
    pluginReports: Array<{ pluginName: string; conclusion: string; violations: Array<{ ruleName: string }> }>;
  };
  return report.pluginReports.flatMap((r) => r.violations);
}

describe("aws-cdk-lib's built-in template validation (off in the other tests: test/setup-env.js)", () => {
  const saved = process.env.CDK_VALIDATION;
  beforeAll(() => { delete process.env.CDK_VALIDATION; });
  afterAll(() => {
    if (saved === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = saved;
  });

  test('finds nothing in the example app', () => {
    expect(reportedViolations(synthExamples(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-validate-'))).app)).toEqual([]);
  });

  test('is on: a property of the wrong type is reported', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'unum-validate-')) });
    new sqs.CfnQueue(new Stack(app, 'Control'), 'Queue').addPropertyOverride('VisibilityTimeout', 'soon');
    expect(reportedViolations(app).map((v) => v.ruleName)).toContain('F3012');
  });
});

describe('cdk-nag AwsSolutionsChecks', () => {
  test('no unacknowledged findings', () => {
    const { app } = synthExamples(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-nag-')));
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // Error findings make synth throw; warnings only appear in the report: we accept neither.
    expect(reportedViolations(app)).toEqual([]);
  });

  test('the checks are wired: a non-conformant resource is reported', () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'unum-nag-')) });
    new sqs.Queue(new Stack(app, 'Control'), 'Queue');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS3/);
  });
});

describe('cfn-lint', () => {
  test('every synthesized template passes', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-lint-'));
    const { app } = synthExamples(outdir);
    const assembly = app.synth();
    const templates = assembly.stacks.map((s) => path.join(assembly.directory, s.templateFile));
    expect(templates.length).toBeGreaterThan(0);
    const run = (): string => execFileSync('cfn-lint', ['--ignore-checks', 'W3005', '--', ...templates], { encoding: 'utf8' });
    expect(run).not.toThrow();
  });
});
