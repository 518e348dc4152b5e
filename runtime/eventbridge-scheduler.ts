/**
 * Scheduler on EventBridge Scheduler one-time schedules: `at(...)` in UTC (a whole minute),
 * no flexible window, deleted after they ran (or before, when a callback
 * Task completes before its timeout); the target is the function after the
 * Wait, invoked asynchronously with the envelope as its event.
 * Default client config (AWS_ENDPOINT_URL_SCHEDULER works).
 */
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import { ENV } from './ir';
import { loadModule } from './load-module';
import type { OneTimeSchedule, ScheduledEvent, Scheduler } from './scheduler';

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

/** The client module, loaded on the first schedule: every function bundles this, few schedule anything. */
const schedulerModule = () => loadModule<typeof import('@aws-sdk/client-scheduler')>('@aws-sdk/client-scheduler');

export class EventBridgeScheduler implements Scheduler {
  private client?: SchedulerClient;

  async schedule(s: OneTimeSchedule<ScheduledEvent>): Promise<void> {
    const { CreateScheduleCommand, SchedulerClient } = await schedulerModule();
    this.client ??= new SchedulerClient({});
    try {
      await this.client.send(
        new CreateScheduleCommand({
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
        }),
      );
    } catch (e) {
      // An earlier execution of this invocation scheduled the wake-up already.
      if ((e as { name?: unknown }).name !== 'ConflictException') throw e;
    }
  }

  async unschedule(name: string): Promise<void> {
    const { DeleteScheduleCommand, SchedulerClient } = await schedulerModule();
    this.client ??= new SchedulerClient({});
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: name, GroupName: setting(ENV.scheduleGroup) }));
    } catch (e) {
      // It fired (and deleted itself) or another completion deleted it.
      if ((e as { name?: unknown }).name !== 'ResourceNotFoundException') throw e;
    }
  }
}
