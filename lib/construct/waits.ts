import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { ENV } from '../../runtime/contract/ir';
import { physicalFunctionName } from './function-names';

/**
 * What a workflow's Waits and callback Tasks need (docs/architecture.md
 * "Waits", "Callbacks"): a schedule group of its own, and a role EventBridge
 * Scheduler assumes (for this account only) that may invoke exactly the
 * functions that run after a Wait and the callback Tasks' own functions
 * (their timeouts). A function before a Wait, or a callback Task's, may
 * create schedules in that group and pass that role to Scheduler (a
 * callback Task's may also delete them), and nothing else of Scheduler's.
 */
export class WaitScheduling extends Construct {
  readonly groupName: string;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, workflow: string, wakeUpFunctionArns: readonly string[]) {
    super(scope, id);
    const stack = Stack.of(this);
    // Known at synth time (the functions' environment names it), unique per stack and workflow; group names take what function names take.
    this.groupName = physicalFunctionName(stack.stackName, workflow, 'waits');
    new scheduler.CfnScheduleGroup(this, 'Group', { name: this.groupName });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com').withConditions({ StringEquals: { 'aws:SourceAccount': stack.account } }),
      description: `unum workflow ${workflow}: EventBridge Scheduler invokes the functions after its Waits`,
    });
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...wakeUpFunctionArns] }));
  }

  /**
   * Lets a function before a Wait (or a callback Task's) schedule its wake-ups; returns the environment its runtime reads them from.
   * `unschedule`: it may also delete them (a callback Task deletes its timeout's schedule once the task completed).
   */
  allowScheduling(role: iam.IRole, unschedule = false): Record<string, string> {
    const stack = Stack.of(this);
    const actions = unschedule ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'] : ['scheduler:CreateSchedule'];
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions,
      resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.groupName}/*`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME })],
    }));
    Validations.of(role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${this.groupName}/*]`,
      reason: `A schedule is named after the invocation it delivers (a hash computed at run time, unknown at deploy); the wildcard covers only this workflow's own schedule group, and the only actions are ${actions.map((a) => a.replace('scheduler:', '')).join(' and ')}.`,
    });
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['iam:PassRole'],
      resources: [this.role.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    }));
    return {
      [ENV.scheduleGroup]: this.groupName,
      [ENV.schedulerRoleArn]: this.role.roleArn,
      [ENV.functionArnPrefix]: stack.formatArn({ service: 'lambda', resource: 'function', resourceName: '', arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
    };
  }
}
