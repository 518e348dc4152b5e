/**
 * The SQS side of the local engine: in-memory queues for the app's
 * `AWS::SQS::Queue` resources. The Lambda emulator sends to them in-process
 * (an on-failure destination that is a queue); clients reach them over HTTP
 * through the fault proxy with `@aws-sdk/client-sqs`, which speaks AWS JSON
 * 1.0 (`POST /`, `X-Amz-Target: AmazonSQS.<Operation>`). Implemented:
 * SendMessage, ReceiveMessage (visibility timeout, long polling),
 * DeleteMessage and GetQueueAttributes (the message counts), with SQS's
 * errors for an unknown queue or receipt handle. A queue URL is
 * `<endpoint>/<account>/<queue name>`; only its last segment is read.
 */
import { createHash, randomUUID } from 'crypto';

/** A queue's default visibility timeout (CloudFormation's, and the construct does not change it). */
const DEFAULT_VISIBILITY_SECONDS = 30;
const MAX_MESSAGES_PER_RECEIVE = 10;
const MAX_WAIT_SECONDS = 20;

export interface SqsReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

interface Message {
  readonly id: string;
  readonly body: string;
  readonly sentAt: number;
  visibleAt: number;
  receiveCount: number;
  /** The handle of the latest receive: a delete names the message through it. */
  receiptHandle?: string;
}

/** A client error the way SQS's JSON protocol reports it (the SDK reads the code from `x-amzn-query-error`). */
class SqsError extends Error {
  constructor(readonly code: string, readonly queryCode: string, message: string) {
    super(message);
  }
}

/** The queue a request names: the last segment of its `QueueUrl`. */
function queueName(input: Record<string, unknown>): string {
  const url = String(input.QueueUrl ?? '');
  return url.slice(url.lastIndexOf('/') + 1);
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export class SqsEmulator {
  private readonly queues = new Map<string, Message[]>();
  private readonly waiters = new Set<() => void>();
  private stopped = false;

  constructor(queueNames: readonly string[]) {
    for (const name of queueNames) this.queues.set(name, []);
  }

  /** Adds a queue a later deploy brings (an existing one keeps its messages). */
  addQueue(name: string): void {
    if (!this.queues.has(name)) this.queues.set(name, []);
  }

  /** Sends a message in-process (Lambda delivering a destination record); returns its id. */
  send(queue: string, body: string): string {
    const message: Message = { id: randomUUID(), body, sentAt: Date.now(), visibleAt: 0, receiveCount: 0 };
    this.queue(queue).push(message);
    this.wakeWaiters();
    return message.id;
  }

  /** Messages of the queue: visible ones, and those received and not yet deleted or visible again. */
  count(queue: string): { visible: number; inFlight: number } {
    const now = Date.now();
    const messages = this.queue(queue);
    const visible = messages.filter((m) => m.visibleAt <= now).length;
    return { visible, inFlight: messages.length - visible };
  }

  /** One SQS API call: `target` is the `X-Amz-Target` header, `body` the JSON request. */
  async handle(target: string, body: string): Promise<SqsReply> {
    try {
      const input = JSON.parse(body || '{}') as Record<string, unknown>;
      switch (target.replace(/^AmazonSQS\./, '')) {
        case 'SendMessage':
          return ok(this.sendMessage(input));
        case 'ReceiveMessage':
          return ok(await this.receiveMessage(input));
        case 'DeleteMessage':
          this.deleteMessage(input);
          return ok({});
        case 'GetQueueAttributes':
          return ok(this.queueAttributes(input));
        default:
          throw new SqsError('UnsupportedOperation', 'AWS.SimpleQueueService.UnsupportedOperation', `the local engine does not implement ${target}`);
      }
    } catch (err) {
      if (!(err instanceof SqsError)) throw err;
      return {
        statusCode: 400,
        headers: { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-query-error': `${err.queryCode};Sender` },
        body: JSON.stringify({ __type: `com.amazonaws.sqs#${err.code}`, message: err.message }),
      };
    }
  }

  /** Ends pending long polls (they return no messages). */
  stop(): void {
    this.stopped = true;
    this.wakeWaiters();
  }

  private queue(name: string): Message[] {
    const q = this.queues.get(name);
    if (!q) throw new SqsError('QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue', `The specified queue does not exist: ${name}`);
    return q;
  }

  private sendMessage(input: Record<string, unknown>): Record<string, unknown> {
    const body = String(input.MessageBody ?? '');
    return { MessageId: this.send(queueName(input), body), MD5OfMessageBody: md5(body) };
  }

  private async receiveMessage(input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const messages = this.queue(queueName(input));
    const max = Math.min(MAX_MESSAGES_PER_RECEIVE, Math.max(1, Number(input.MaxNumberOfMessages ?? 1)));
    const visibilityMs = Number(input.VisibilityTimeout ?? DEFAULT_VISIBILITY_SECONDS) * 1000;
    const deadline = Date.now() + Math.min(MAX_WAIT_SECONDS, Number(input.WaitTimeSeconds ?? 0)) * 1000;
    for (;;) {
      const now = Date.now();
      const visible = messages.filter((m) => m.visibleAt <= now).slice(0, max);
      if (visible.length > 0 || now >= deadline || this.stopped) {
        return visible.length === 0 ? {} : { Messages: visible.map((m) => this.deliver(m, now + visibilityMs)) };
      }
      const nextVisible = Math.min(deadline, ...messages.map((m) => m.visibleAt));
      await this.waitUntil(nextVisible);
    }
  }

  private deliver(m: Message, visibleAt: number): Record<string, unknown> {
    m.visibleAt = visibleAt;
    m.receiveCount++;
    m.receiptHandle = `${m.id}#${m.receiveCount}`;
    return {
      MessageId: m.id,
      ReceiptHandle: m.receiptHandle,
      MD5OfBody: md5(m.body),
      Body: m.body,
      Attributes: { ApproximateReceiveCount: String(m.receiveCount), SentTimestamp: String(m.sentAt) },
    };
  }

  /** Deletes the message a receipt handle names; SQS accepts a handle whose message is gone already. */
  private deleteMessage(input: Record<string, unknown>): void {
    const messages = this.queue(queueName(input));
    const handle = String(input.ReceiptHandle ?? '');
    const id = /^([0-9a-f-]{36})#\d+$/.exec(handle)?.[1];
    if (!id) throw new SqsError('ReceiptHandleIsInvalid', 'ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`);
    const i = messages.findIndex((m) => m.id === id);
    if (i >= 0) messages.splice(i, 1);
  }

  private queueAttributes(input: Record<string, unknown>): Record<string, unknown> {
    const { visible, inFlight } = this.count(queueName(input));
    return { Attributes: { ApproximateNumberOfMessages: String(visible), ApproximateNumberOfMessagesNotVisible: String(inFlight) } };
  }

  private waitUntil(time: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, time - Date.now()));
      this.waiters.add(wake);
    });
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

function ok(output: Record<string, unknown>): SqsReply {
  return { statusCode: 200, headers: { 'Content-Type': 'application/x-amz-json-1.0' }, body: JSON.stringify(output) };
}
