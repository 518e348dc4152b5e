/**
 * Scheduler on EventBridge Scheduler one-time schedules: `at(...)` in UTC (a whole minute),
 * no flexible window, deleted after they ran (or before, when a callback
 * Task completes before its timeout); the target is the function after the
 * Wait, invoked asynchronously with the envelope as its event.
 * Default client config (AWS_ENDPOINT_URL_SCHEDULER works).
 */
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import { ENV } from '../contract/ir';
import { loadModule } from './load-module';
import type { OneTimeSchedule, ScheduledEvent, Scheduler } from '../ports/scheduler';

/** Scheduler's retry window bounds (`MaximumEventAgeInSeconds`). */
const DELIVERY_SECONDS = { min: 60, max: 86_400 };

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`unum: environment variable ${name} is not set (a function before a Wait needs it)`);
  return value;
};

/**
 * `at(yyyy-mm-ddThh:mm:ss)` of the first whole minute not before `ms`:
 * Scheduler invokes "with 60 second precision", anywhere in the minute of
 * the time given, so a time inside a minute could wake the run early.
 */
export const atExpression = (ms: number): string => `at(${new Date(Math.ceil(ms / 60_000) * 60_000).toISOString().slice(0, 19)})`;

type SchedulerModule = typeof import('@aws-sdk/client-scheduler');

/** Waits for `call`; the error named `done` means its work is done already. */
async function unlessDone(call: Promise<unknown>, done: string): Promise<void> {
  try {
    await call;
  } catch (e) {
    if ((e as { name?: unknown }).name !== done) throw e;
  }
}

export class EventBridgeScheduler implements Scheduler {
  private client?: SchedulerClient;

  async schedule(s: OneTimeSchedule<ScheduledEvent>): Promise<void> {
    const { m, client } = await this.sdk();
    const create = new m.CreateScheduleCommand({
      Name: s.name,
      GroupName: setting(ENV.scheduleGroup),
      ScheduleExpression: atExpression(s.at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: setting(ENV.functionArnPrefix) + s.functionName,
        RoleArn: setting(ENV.schedulerRoleArn),
        Input: JSON.stringify(s.event),
        RetryPolicy: { MaximumEventAgeInSeconds: Math.min(Math.max(s.maxDeliverySeconds, DELIVERY_SECONDS.min), DELIVERY_SECONDS.max) },
      },
    });
    // An earlier execution of this invocation scheduled the wake-up already.
    await unlessDone(client.send(create), 'ConflictException');
  }

  async unschedule(name: string): Promise<void> {
    const { m, client } = await this.sdk();
    // It fired (and deleted itself) or another completion deleted it.
    await unlessDone(client.send(new m.DeleteScheduleCommand({ Name: name, GroupName: setting(ENV.scheduleGroup) })), 'ResourceNotFoundException');
  }

  /** Loaded on the first schedule: every function bundles this, few schedule anything. */
  private async sdk(): Promise<{ m: SchedulerModule; client: SchedulerClient }> {
    const m = await loadModule<SchedulerModule>('@aws-sdk/client-scheduler');
    this.client ??= new m.SchedulerClient({});
    return { m, client: this.client };
  }
}
