import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { ENV } from '../../runtime/contract/ir';
import { physicalFunctionName } from './function-names';
import { retainRole } from './permissions';

/**
 * What a workflow's Waits and callback Tasks need (docs/architecture.md
 * "Waits", "Callbacks"): a schedule group of its own, and, per deployment with any, a
 * role EventBridge Scheduler assumes (for this account only) that may invoke
 * exactly the aliases of that deployment of the functions that run after a
 * Wait and of the callback Tasks' own functions (their timeouts). A function
 * before a Wait, or a callback Task's, may create schedules in that group and
 * pass its deployment's role to Scheduler (a callback Task's may also delete
 * them), and nothing else of Scheduler's. Every workflow has the group, even
 * one without Waits: a schedule of an older deployment (whose workflow had
 * Waits) must keep its group, and a group left out of the template and
 * retained would make a later deployment that brings Waits back fail to
 * create it. Roles are retained: a schedule created by a run of an older
 * deployment still fires with its role, until the sweeper deletes the role
 * with the deployment.
 */
export class WaitScheduling extends Construct {
  readonly groupName: string;
  /** Absent when the deployment schedules nothing. */
  readonly role?: iam.Role;

  /**
   * @param deployment the deployment id, part of the role's logical id: each deployment has its own role.
   * @param rolePath the workflow's role path (permissions.ts `deploymentRolePath`), under which the sweeper may delete roles.
   * @param wakeUpFunctionArns the qualified ARNs (`<function>:<deployment>`) schedules invoke; none: no role.
   */
  constructor(scope: Construct, id: string, workflow: string, deployment: string, rolePath: string, wakeUpFunctionArns: readonly string[]) {
    super(scope, id);
    const stack = Stack.of(this);
    // Known at synth time (the functions' environment names it), unique per stack and workflow; group names take what function names take.
    this.groupName = physicalFunctionName(stack.stackName, workflow, 'waits');
    new scheduler.CfnScheduleGroup(this, 'Group', { name: this.groupName });
    if (wakeUpFunctionArns.length === 0) return;
    this.role = new iam.Role(this, `Role${deployment}`, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com').withConditions({ StringEquals: { 'aws:SourceAccount': stack.account } }),
      description: `unum workflow ${workflow}, deployment ${deployment}: EventBridge Scheduler invokes the functions after its Waits`,
      path: rolePath,
    });
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...wakeUpFunctionArns] }));
    retainRole(this.role);
  }

  /**
   * Lets a function before a Wait (or a callback Task's) schedule its wake-ups; returns the environment its runtime reads them from.
   * `unschedule`: it may also delete them (a callback Task deletes its timeout's schedule once the task completed).
   */
  allowScheduling(role: iam.IRole, unschedule = false): Record<string, string> {
    if (!this.role) throw new Error(`${this.node.path}: no function of this deployment is scheduled`);
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
