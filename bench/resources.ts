/**
 * Things several figures share, started on first use and stopped at the end
 * of the bench run: one DynamoDB Local, and cached values (synthesized apps,
 * engines) with their cleanup.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { createWorkflowTable } from '../lib/local/create-tables';

const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const REGION = 'us-east-1';

export interface LocalDynamo {
  readonly endpoint: string;
  /** A new client (the caller may instrument it); destroyed at the end of the run. */
  client(): DynamoDBClient;
  /** Creates a workflow table (as the construct deploys it) and returns its name. */
  table(prefix: string): Promise<string>;
}

export class BenchResources {
  private readonly cache = new Map<string, Promise<unknown>>();
  private readonly cleanups: Array<() => Promise<void> | void> = [];
  private readonly stops = new Map<string, () => Promise<void> | void>();

  /** The value made once per bench run by `make`; `stop` runs at the end. */
  shared<T>(key: string, make: () => Promise<{ value: T; stop?: () => Promise<void> | void }>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make().then((r) => {
        if (r.stop) {
          const stop = r.stop;
          let done = false;
          const once = async (): Promise<void> => {
            if (done) return;
            done = true;
            await stop();
          };
          this.stops.set(key, once);
          this.cleanups.push(once);
        }
        return r.value;
      });
      // A failed start is not cached: the next figure may try again.
      p.catch(() => this.cache.delete(key));
      this.cache.set(key, p);
    }
    return p;
  }

  /** Stops one shared value now (e.g. an engine a later figure does not need). */
  async release(key: string): Promise<void> {
    const stop = this.stops.get(key);
    this.cache.delete(key);
    this.stops.delete(key);
    if (stop) await stop();
  }

  onStop(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  dynamo(): Promise<LocalDynamo> {
    return this.shared('dynamodb-local', async () => {
      const local = await startDynamoDbLocal();
      const clients: DynamoDBClient[] = [];
      const client = (): DynamoDBClient => {
        const c = new DynamoDBClient({ endpoint: local.endpoint, region: REGION, credentials: CREDENTIALS, maxAttempts: 10 });
        clients.push(c);
        return c;
      };
      const admin = client();
      const value: LocalDynamo = {
        endpoint: local.endpoint,
        client,
        async table(prefix) {
          const name = `${prefix}-${randomUUID().slice(0, 8)}`;
          await createWorkflowTable(admin, name);
          return name;
        },
      };
      return {
        value,
        stop: async () => {
          for (const c of clients) c.destroy();
          await local.stop();
        },
      };
    });
  }

  async stop(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // best effort: the run is over
      }
    }
    this.cleanups.length = 0;
    this.stops.clear();
    this.cache.clear();
  }
}

export const LOCAL_CREDENTIALS = CREDENTIALS;
