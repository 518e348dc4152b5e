/**
 * Crashes at chosen I/O points of an effect, for the crash-point tests (issue
 * 17, part 6): a DynamoDB client whose `send` can fail before or after a
 * matching command reaches DynamoDB Local, as a Lambda execution that dies
 * there would leave things. A crash throws; the test driver then runs the
 * invocation again as Lambda's async retry does.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** A command as the client sends it: its class name and input. */
export interface SentCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export type CrashPoint = 'before' | 'after';

export interface Crash {
  /** Which command to crash at (the first `times` that match). */
  readonly match: (c: SentCommand) => boolean;
  readonly point: CrashPoint;
  /** @default 1 */
  readonly times?: number;
  /** Runs at the crash, before it throws (e.g. to close a database connection, as a dying process does). */
  readonly onCrash?: () => void | Promise<void>;
}

export class CrashError extends Error {
  override name = 'CrashError';
}

/** `client` with `crashes` armed; `sent` lists every command that reached the database. */
export function crashingClient(client: DynamoDBClient, crashes: readonly Crash[]): { client: DynamoDBClient; sent: SentCommand[] } {
  const left = crashes.map((c) => c.times ?? 1);
  const sent: SentCommand[] = [];
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }): Promise<unknown> => {
    const c: SentCommand = { name: command.constructor.name, input: command.input };
    const i = crashes.findIndex((crash, k) => left[k] > 0 && crash.match(c));
    const crash = i < 0 ? undefined : crashes[i];
    if (crash) left[i]--;
    const fail = async (): Promise<never> => {
      await crash?.onCrash?.();
      throw new CrashError(`injected crash ${crash?.point} ${c.name}`);
    };
    if (crash?.point === 'before') return fail();
    const result = await (client.send as (cmd: unknown) => Promise<unknown>)(command);
    sent.push(c);
    if (crash?.point === 'after') return fail();
    return result;
  };
  const proxy = new Proxy(client, { get: (target, prop, receiver) => (prop === 'send' ? send : Reflect.get(target, prop, receiver)) });
  return { client: proxy, sent };
}

/** Matches a command by class name and, optionally, by its input. */
export const command =
  (name: string, where: (input: Record<string, unknown>) => boolean = () => true) =>
  (c: SentCommand): boolean =>
    c.name === name && where(c.input);
