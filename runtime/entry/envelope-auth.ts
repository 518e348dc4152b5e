/**
 * Envelope authentication in a workflow function (docs/deploying-and-operating.md
 * "Who can do what: the trust model"). A node other than the entry accepts an
 * envelope only when its MAC verifies under the workflow's envelope key
 * (runtime/contract/envelope-mac.ts), checked before anything else of the
 * event and before any read or write of the run: an envelope without one,
 * or with a wrong one, is rejected naming no run, so nothing is written for
 * it. Every envelope the function sends leaves sealed: the ports it reaches
 * Lambda, the Scheduler and the parked items through seal it (`sealingPorts`).
 *
 * A redrive's fields are outside the MAC and checked against the table before
 * the step (`checkResent`): a re-sent envelope's generation must be one a
 * redrive marked its parked item with, and one moved to another deployment
 * must reach the deployment its run record names. Changing them does at most
 * what a redrive does.
 */
import { UnumEventError } from '../contract/errors';
import { macVerifies, sealEnvelope } from '../contract/envelope-mac';
import { ENVELOPE_VERSION, type Envelope, type NodeIR } from '../contract/ir';
import { isObject } from '../contract/start-request';
import type { Invocation } from '../ports/execution';
import type { Invoker } from '../ports/invoker';
import type { Scheduler } from '../ports/scheduler';
import type { CheckpointStore, DynamoDbTarget } from '../ports/store';
import { executionName } from '../step/execute';
import { envelopeFormat } from './envelope';

/** Where a function gets its workflow's envelope key (default: the workflow table, runtime/aws/envelope-key.ts). */
export type EnvelopeKeySource = (workflow: string) => Promise<Uint8Array>;

/** The key read once per cold start: a read that failed is tried again at the next event. */
export function cachedKey(source: EnvelopeKeySource, workflow: string): () => Promise<Uint8Array> {
  let key: Promise<Uint8Array> | undefined;
  return () => {
    key ??= source(workflow).catch((e: unknown) => {
      key = undefined;
      throw e;
    });
    return key;
  };
}

const ENVELOPE_KEYS = new Set(['unum', 'mac']);

function unauthenticated(ir: NodeIR, why: string): UnumEventError {
  return new UnumEventError(`unauthenticated envelope to node ${ir.node} of workflow ${ir.workflow}: ${why}; it accepts only envelopes sealed by its workflow's functions (its envelope key)`);
}

/** Whether `mac` is the MAC of `header`: a header too deep to serialize (RangeError) is none that a function sealed. */
function verifies(key: Uint8Array, header: Record<string, unknown>, mac: unknown): boolean {
  try {
    return macVerifies(key, header, mac);
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

/**
 * Throws the rejection of an event to a node other than the entry that is an
 * envelope not sealed with `key` (an event without `unum` is left to
 * `parseEvent`, which rejects it). The rejection names no run: an
 * unauthenticated envelope writes nothing, not even its run's FAILED record.
 */
export function authenticate(event: unknown, ir: NodeIR, key: Uint8Array): void {
  if (ir.entry || !isObject(event) || !('unum' in event)) return;
  const header = event.unum;
  if (!isObject(header)) throw unauthenticated(ir, 'unum is not an object');
  if (header.v !== ENVELOPE_VERSION) throw new UnumEventError(`${envelopeFormat(header.v)}: it carries no MAC this node can verify; node ${ir.node} runs format ${ENVELOPE_VERSION} on deployment ${ir.deployment || '(none)'}`);
  const extra = Object.keys(event).filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length > 0) throw unauthenticated(ir, `unexpected key ${JSON.stringify(extra[0])} beside unum and mac`);
  if (event.mac === undefined) throw unauthenticated(ir, 'it has no mac');
  if (!verifies(key, header, event.mac)) throw unauthenticated(ir, 'its mac does not verify');
}

/**
 * A re-sent envelope (one with `redrive`, which the MAC does not cover) is
 * refused, naming no run, unless a redrive of at least its generation marked
 * its invocation's parked item re-sent (`rb`, set before the redrive invokes
 * it), and, when a redrive moved it (`movedFrom`), its run record names this
 * function's deployment. One consistent read of the run record and the
 * parked item, made only for re-sent envelopes.
 */
export async function checkResent(store: CheckpointStore, ir: NodeIR, event: unknown, invocation: Invocation): Promise<void> {
  const generation = invocation.redrive;
  if (invocation.start || generation === undefined) return;
  const run = { workflow: ir.workflow, workflowId: invocation.workflowId };
  const name = executionName(ir, invocation);
  const { resentBy, deployment } = await store.getResent(run, name);
  if (resentBy < generation) {
    throw new UnumEventError(`a re-sent envelope of generation ${generation} to node ${ir.node} of workflow ${ir.workflow}, run ${run.workflowId}: no redrive of that generation re-sent invocation ${name} (its parked item is marked ${resentBy}), so it is not one a redrive sent`);
  }
  const movedFrom = (event as Envelope).unum.movedFrom;
  if (movedFrom !== undefined && deployment !== ir.deployment) {
    throw new UnumEventError(`an envelope of run ${run.workflowId} moved from deployment ${movedFrom} to node ${ir.node} of deployment ${ir.deployment || '(none)'}: the run record names deployment ${deployment ?? '(none)'}, and only a redrive moves a run`);
  }
}

/** A parked event as it is stored: an envelope sealed (a start request, which the entry takes unauthenticated, as it is). */
function sealedEvent(key: Uint8Array, event: string): string {
  const e = JSON.parse(event) as unknown;
  return isObject(e) && isObject(e.unum) ? JSON.stringify(sealEnvelope(key, e as unknown as Envelope)) : event;
}

/** The ports a function's envelopes leave through, each sealing them with `key`: invoked, scheduled (after a Wait), parked for a redrive. */
export function sealingPorts(key: Uint8Array, ports: { store: CheckpointStore; invoker: Invoker; scheduler: Scheduler }): { store: CheckpointStore; invoker: Invoker; scheduler: Scheduler } {
  const { store, invoker, scheduler } = ports;
  const putParked: CheckpointStore['putParked'] = (run, invocation, parked, ttl) => store.putParked(run, invocation, { ...parked, event: sealedEvent(key, parked.event) }, ttl);
  // Every other call goes to the store itself, on itself.
  const sealedStore = new Proxy(store, {
    get(target, prop) {
      if (prop === 'putParked') return putParked;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: sealedStore,
    invoker: sealingInvoker(key, invoker),
    scheduler: {
      schedule: (s) => scheduler.schedule('unum' in s.event ? { ...s, event: sealEnvelope(key, s.event) } : s),
      unschedule: (name) => scheduler.unschedule(name),
    },
  };
}

/** Whether `event` is an envelope sealed with `key`: what the failure recorder acts on (runtime/entry/failure-recorder.ts). */
export const isSealed = (event: Record<string, unknown>, key: Uint8Array): boolean => isObject(event.unum) && verifies(key, event.unum, event.mac);

/** `invoker` sealing every envelope it sends. */
export const sealingInvoker = (key: Uint8Array, invoker: Invoker): Invoker => ({ invoke: (functionName, event) => invoker.invoke(functionName, sealEnvelope(key, event)) });

/** The table a store is on, for the envelope key's read. */
export function tableOf(store: CheckpointStore): DynamoDbTarget {
  if (!store.dynamoDb) throw new Error('unum: a store that is not on DynamoDB needs the envelope key given (envelopeKey)');
  return store.dynamoDb;
}
