/**
 * Turns a Lambda event into an Invocation: a start request (entry only) or an
 * envelope, validated field by field before anything is written, so a
 * malformed event can never leave a half-made checkpoint or run record.
 */
import { UnumEnvelopeError } from './errors';
import { TAIL_RADIX } from './fan-in';
import { ENVELOPE_VERSION, type FanOutFrame, type FoldState, type InputRef, type Json, type NodeIR, WORKFLOW_ID_PATTERN } from './ir';
import { isCheckpointKey } from './table';
import type { Invocation, LambdaContext } from './types';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isKey = (v: unknown): v is string => typeof v === 'string' && isCheckpointKey(v) && v.length <= 1024;

const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 256;

function check(ok: boolean, field: string, why: string): asserts ok {
  if (!ok) throw new UnumEnvelopeError(`malformed envelope: ${field} ${why}`);
}

function parseFrame(f: unknown, i: number): FanOutFrame {
  const at = `unum.fanOut[${i}]`;
  check(isObject(f), at, 'must be an object');
  check(isCount(f.size) && f.size > 0, `${at}.size`, 'must be a positive integer');
  check(isCount(f.index) && f.index < f.size, `${at}.index`, 'must be an integer in [0, size)');
  check(f.kind === 'map' || f.kind === 'parallel', `${at}.kind`, "must be 'map' or 'parallel'");
  check(isCount(f.iteration), `${at}.iteration`, 'must be a non-negative integer');
  check(isKey(f.origin), `${at}.origin`, 'must be a checkpoint key');
  const frame: FanOutFrame = { index: f.index, size: f.size, kind: f.kind, iteration: f.iteration, origin: f.origin };
  const j = f.join;
  if (j === undefined) return frame;
  check(isObject(j) && isName(j.node) && Array.isArray(j.tails) && j.tails.length <= TAIL_RADIX && j.tails.every(isName), `${at}.join`, 'must be {node, tails}');
  return { ...frame, join: { node: j.node, tails: j.tails as string[] } };
}

const IN = 'unum.inputs[0]';
const ONE_OF = 'must have exactly one of value, ref, mapItem, fanIn';

function parseInput(r: unknown): InputRef {
  check(isObject(r) && Object.keys(r).length === 1, IN, ONE_OF);
  if ('value' in r) return { value: r.value as Json };
  if ('ref' in r) {
    check(isKey(r.ref), `${IN}.ref`, 'must be a checkpoint key');
    return { ref: r.ref };
  }
  if ('mapItem' in r) {
    const m = r.mapItem;
    check(isObject(m) && isKey(m.origin) && isCount(m.index) && isName(m.state), `${IN}.mapItem`, 'must be {origin: checkpoint key, index, state: node}');
    return { mapItem: { origin: m.origin, index: m.index, state: m.state } };
  }
  const f = r.fanIn;
  check(isObject(f), IN, ONE_OF);
  check(isName(f.join), `${IN}.fanIn.join`, 'must be an invocation name');
  check(isCount(f.size), `${IN}.fanIn.size`, 'must be a non-negative integer');
  check(isKey(f.origin), `${IN}.fanIn.origin`, 'must be a checkpoint key');
  return { fanIn: { join: f.join, size: f.size, origin: f.origin } };
}

function parseFold(f: unknown): FoldState {
  check(isObject(f), 'unum.fold', 'must be an object');
  check(Array.isArray(f.items) && f.items.every(isKey), 'unum.fold.items', 'must be an array of checkpoint keys');
  const items = f.items as string[];
  check(isCount(f.index) && f.index < items.length, 'unum.fold.index', 'must be an integer in [0, items.length)');
  return { index: f.index, items };
}

function parseEnvelope(u: unknown, ir: NodeIR): Invocation {
  check(isObject(u), 'unum', 'must be an object');
  check(u.v === ENVELOPE_VERSION, 'unum.v', `must be ${ENVELOPE_VERSION}`);
  check(typeof u.workflowId === 'string' && WORKFLOW_ID_PATTERN.test(u.workflowId), 'unum.workflowId', `must match ${WORKFLOW_ID_PATTERN}`);
  check(u.node === ir.node, 'unum.node', `must be this function's node ${JSON.stringify(ir.node)} (got ${JSON.stringify(u.node)})`);
  check(isCount(u.iteration), 'unum.iteration', 'must be a non-negative integer');
  check(Array.isArray(u.fanOut), 'unum.fanOut', 'must be an array');
  check(Array.isArray(u.inputs) && u.inputs.length === 1, 'unum.inputs', 'must be an array of exactly one input');
  check(u.parent === undefined || isKey(u.parent), 'unum.parent', 'must be a checkpoint key');
  check(u.lease === undefined || isCount(u.lease), 'unum.lease', 'must be a non-negative integer (epoch seconds)');
  const frames = (u.fanOut as unknown[]).map(parseFrame);
  const input = parseInput((u.inputs as unknown[])[0]);
  return {
    workflowId: u.workflowId,
    iteration: u.iteration,
    frames,
    input,
    start: false,
    ...(u.parent === undefined ? {} : { parent: u.parent as string }),
    ...(u.fold === undefined ? {} : { fold: parseFold(u.fold) }),
    ...(u.lease === undefined ? {} : { lease: u.lease as number }),
  };
}

/**
 * An event with `unum` is an envelope. Otherwise it is a start request:
 * `{ input, workflowId? }` (only those keys) is explicit, anything else is the
 * raw input; the workflow id defaults to the Lambda request id, which Lambda
 * keeps across its async retries of one event.
 */
export function parseEvent(event: unknown, ir: NodeIR, context: LambdaContext): Invocation {
  if (isObject(event) && 'unum' in event) return parseEnvelope(event.unum, ir);
  if (!ir.entry) throw new UnumEnvelopeError(`malformed envelope: unum is missing and node ${ir.node} is not the entry`);
  const explicit = isObject(event) && 'input' in event && Object.keys(event).every((k) => k === 'input' || k === 'workflowId');
  const workflowId = explicit && event.workflowId !== undefined ? event.workflowId : context.awsRequestId;
  check(typeof workflowId === 'string' && WORKFLOW_ID_PATTERN.test(workflowId), 'workflowId', `must match ${WORKFLOW_ID_PATTERN}`);
  const input = (explicit ? event.input : (event ?? null)) as Json;
  return { workflowId, iteration: 0, frames: [], input: { value: input }, start: true };
}
