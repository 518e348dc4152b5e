/**
 * The entry point bundled into every workflow function:
 * `export const handler = createHandler(userModule)`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDbStore } from '../aws/dynamodb-store';
import { parseEvent } from './envelope';
import { UnumEventError } from '../contract/errors';
import { EventBridgeScheduler } from '../aws/eventbridge-scheduler';
import { execute } from '../step/execute';
import { ENV, IR_FILE_NAME, IR_VERSION, type NodeIR } from '../contract/ir';
import type { Invoker } from '../ports/invoker';
import { LambdaInvoker } from '../aws/lambda-invoker';
import { rejectEvent } from './rejection';
import { checkEventBounds } from './input-bounds';
import { withBoundedErrors } from './escaping-error';
import { authenticate, cachedKey, checkResent, type EnvelopeKeySource, sealingPorts, tableOf } from './envelope-auth';
import { readEnvelopeKey } from '../aws/envelope-key';
import type { Scheduler } from '../ports/scheduler';
import type { CheckpointStore } from '../ports/store';
import type { Invocation, TaskPort, UserFunction } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';

export interface HandlerOptions {
  /** The node's IR; default: the file named by UNUM_IR_FILE, else `unum-ir.json` beside the bundle. */
  readonly ir?: NodeIR;
  /** Default: DynamoDB, table from UNUM_TABLE. */
  readonly store?: CheckpointStore;
  /** Default: Lambda async Invoke. */
  readonly invoker?: Invoker;
  /** Default: EventBridge Scheduler one-time schedules (used by nodes before a Wait and callback Tasks). */
  readonly scheduler?: Scheduler;
  /** A callback Task's part (runtime/callbacks/callback-handler.ts). */
  readonly tasks?: TaskPort;
  /** The workflow's envelope key; default: its item in the store's DynamoDB table, read once per cold start. */
  readonly envelopeKey?: EnvelopeKeySource;
}

export type LambdaHandler = (event: unknown, context: LambdaContext) => Promise<unknown>;

function loadIr(): NodeIR {
  const file = process.env[ENV.irFile] || join(__dirname, IR_FILE_NAME);
  return JSON.parse(readFileSync(file, 'utf8')) as NodeIR;
}

export function createHandler(userModule: Record<string, unknown>, options: HandlerOptions = {}): LambdaHandler {
  const ir = options.ir ?? loadIr();
  if (ir.version !== IR_VERSION) throw new Error(`unum: IR version ${ir.version} of node ${ir.node} is not supported (expected ${IR_VERSION})`);
  let fn: UserFunction | undefined;
  if (ir.handler.kind !== 'pass') {
    const exported = userModule[ir.handler.export];
    if (typeof exported !== 'function') {
      throw new Error(`unum: node ${ir.node} needs the function export ${JSON.stringify(ir.handler.export)} of its entry module, which has ${typeof exported}`);
    }
    fn = exported as UserFunction;
  }
  let store = options.store;
  let invoker = options.invoker;
  const scheduler = options.scheduler ?? new EventBridgeScheduler();
  const storeOf = (): CheckpointStore => {
    if (!store) {
      const table = process.env[ENV.table];
      if (!table) throw new Error(`unum: environment variable ${ENV.table} is not set`);
      store = new DynamoDbStore(table);
    }
    return store;
  };
  const keyOf = cachedKey(options.envelopeKey ?? ((workflow) => readEnvelopeKey(tableOf(storeOf()), workflow)), ir.workflow);
  let sealed: (ReturnType<typeof sealingPorts> & { key: Uint8Array }) | undefined;
  // Everything this function sends leaves sealed, and an envelope it receives is verified, with the workflow's key.
  const portsOf = async (): Promise<ReturnType<typeof sealingPorts> & { key: Uint8Array }> => {
    const key = await keyOf();
    invoker ??= new LambdaInvoker();
    sealed ??= { key, ...sealingPorts(key, { store: storeOf(), invoker, scheduler }) };
    return sealed;
  };
  return withBoundedErrors(async (event, context) => {
    const { key, ...ports } = await portsOf();
    // A callback Task's function also takes responses to its task tokens (runtime/callbacks/task-completion.ts).
    const { tasks } = options;
    if (ir.callback && tasks && typeof event === 'object' && event !== null && 'unumTask' in event) {
      return tasks.respond({ ir, fn, ...ports, tasks }, event, context);
    }
    let invocation: Invocation;
    try {
      // The MAC first: an envelope no function of the workflow sealed is rejected naming no run, so it writes nothing.
      authenticate(event, ir, key);
      // Before any read or write: a malformed event touches nothing but its own run's record.
      checkEventBounds(event, ir, context);
      invocation = parseEvent(event, ir, context);
      await checkResent(ports.store, ir, event, invocation);
    } catch (e) {
      if (e instanceof UnumEventError) return rejectEvent(ir, storeOf, e);
      throw e;
    }
    await execute({ ir, fn, ...ports, ...(tasks ? { tasks } : {}) }, invocation, context);
    return { workflowId: invocation.workflowId };
  });
}
