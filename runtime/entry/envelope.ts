/**
 * Turns a Lambda event into an Invocation, checked field by field against
 * the bounds of ENVELOPE_BOUNDS before anything is read or written: the entry
 * accepts start requests only, every other node envelopes of its own
 * workflow, envelope version and deployment only (docs/architecture.md "The envelope"). A start permission is
 * permission to invoke the entry, so it can start runs and nothing else.
 * An envelope's MAC is verified before this (envelope-auth.ts `authenticate`),
 * so a malformed envelope that ends its run here is one the workflow's own
 * functions sealed.
 */
import { UnumEventError } from '../contract/errors';
import { TAIL_RADIX } from '../records/fan-in-shards';
import { DEPLOYMENT_ID_PATTERN, ENVELOPE_BOUNDS, ENVELOPE_VERSION, type FanOutFrame, type FoldState, type InputRef, type Json, type NodeIR, WORKFLOW_ID_PATTERN } from '../contract/ir';
import { isCount, isGeneration, isObject, isRunId, parseStart, REDRIVE } from '../contract/start-request';
import { isCheckpointKey, isInvocationName } from '../contract/table';
import type { Invocation } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';

const isKey = (v: unknown): v is string => typeof v === 'string' && isCheckpointKey(v);
/** Node names: the compiler's charset (`.` in the nodes it adds), at most 64 characters and a suffix. */
const isNodeName = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,80}$/.test(v);

const { fanOutSize: MAX_SIZE, depth: MAX_DEPTH, iteration: MAX_ITERATION } = ENVELOPE_BOUNDS;
/** Epoch seconds fit in 32 bits until 2106. */
const MAX_EPOCH_SECONDS = 2 ** 32;
const SIZE = `must be an integer in [1, ${MAX_SIZE}]`;
const ITERATION = `must be an integer in [0, ${MAX_ITERATION}]`;
const KEY = 'must be a checkpoint key';
const thisFunctions = (what: string, expected: string, got: unknown): string => `must be this function's ${what} ${JSON.stringify(expected)} (got ${JSON.stringify(got)})`;
const notAccepted = (ir: NodeIR, why: string): string => `is not accepted: node ${ir.node} ${why}`;

function check(ok: boolean, field: string, why: string): asserts ok {
  if (!ok) throw new UnumEventError(`malformed envelope: ${field} ${why}`);
}

/** What an envelope version (`unum.v`) was, for a refusal that says why it cannot be read. */
export function envelopeFormat(v: unknown): string {
  if (v === 1 || v === 2 || v === undefined) return `an envelope of format ${v ?? 1}, from an unum-cdk before deployment pinning`;
  if (v === 3) return 'an envelope of format 3, from an unum-cdk before envelopes were authenticated';
  if (typeof v === 'number' && v > ENVELOPE_VERSION) return `an envelope of format ${v}, from a newer unum-cdk`;
  return `an envelope of unknown format ${JSON.stringify(v)}`;
}

/**
 * An envelope of this workflow sent by a function of another deployment: a
 * run never leaves the deployment it started on (every invocation names its
 * deployment's alias), so this one was misrouted and its run cannot go on here.
 */
export const DEPLOYMENT_MISMATCH = 'Unum.DeploymentMismatch';

export function parseFrame(f: unknown, i: number): FanOutFrame {
  const at = `unum.fanOut[${i}]`;
  check(isObject(f), at, 'must be an object');
  check(isCount(f.size, MAX_SIZE) && f.size > 0, `${at}.size`, SIZE);
  check(isCount(f.index, MAX_SIZE) && f.index < f.size, `${at}.index`, 'must be an integer in [0, size)');
  check(f.kind === 'map' || f.kind === 'parallel', `${at}.kind`, "must be 'map' or 'parallel'");
  check(isCount(f.iteration, MAX_ITERATION), `${at}.iteration`, ITERATION);
  check(isKey(f.origin), `${at}.origin`, KEY);
  check(f.originNode === undefined || (f.kind === 'map' && isNodeName(f.originNode)), `${at}.originNode`, "must be a node name, on a 'map' frame");
  check(f.replaces === undefined || (isCount(f.replaces, MAX_ITERATION) && f.replaces < f.iteration), `${at}.replaces`, 'must be an iteration below the frame\'s');
  const frame: FanOutFrame = {
    index: f.index,
    size: f.size,
    kind: f.kind,
    iteration: f.iteration,
    origin: f.origin,
    ...(f.originNode === undefined ? {} : { originNode: f.originNode }),
    ...(f.replaces === undefined ? {} : { replaces: f.replaces }),
  };
  const j = f.join;
  if (j === undefined) return frame;
  check(isObject(j) && isNodeName(j.node) && Array.isArray(j.tails) && j.tails.length <= TAIL_RADIX && j.tails.every(isNodeName), `${at}.join`, 'must be {node, tails}');
  return { ...frame, join: { node: j.node, tails: j.tails as string[] } };
}

const IN = 'unum.inputs[0]';
const ONE_OF = 'must have exactly one of value, ref, mapItem, launch, fanIn, failed';

/** One input; a map item or a fan-in only where this node can take one, consistent with the frames. */
function parseInput(r: unknown, ir: NodeIR, frames: readonly FanOutFrame[]): InputRef {
  check(isObject(r) && Object.keys(r).length === 1, IN, ONE_OF);
  if ('value' in r) return { value: r.value as Json };
  if ('ref' in r) {
    check(isKey(r.ref), `${IN}.ref`, KEY);
    return { ref: r.ref };
  }
  if ('mapItem' in r) {
    const m = r.mapItem;
    const top = frames.at(-1);
    check(ir.mapItems !== undefined, `${IN}.mapItem`, notAccepted(ir, 'starts no item processor'));
    check(isObject(m) && isKey(m.origin) && isCount(m.index, MAX_SIZE) && isNodeName(m.state), `${IN}.mapItem`, 'must be {origin: checkpoint key, index, state: node}');
    check(top?.kind === 'map' && top.index === m.index && top.origin === m.origin, `${IN}.mapItem`, "must name the index and origin of the top fan-out frame, a 'map' frame");
    return { mapItem: { origin: m.origin, index: m.index, state: m.state } };
  }
  if ('launch' in r) {
    const l = r.launch;
    const top = frames.at(-1);
    check(ir.mapItems !== undefined, `${IN}.launch`, notAccepted(ir, 'starts no item processor'));
    check(isObject(l) && isKey(l.origin) && isCount(l.from, MAX_SIZE) && isCount(l.to, MAX_SIZE) && isNodeName(l.state), `${IN}.launch`, 'must be {origin: checkpoint key, from, to, state: node}');
    check(top?.kind === 'map' && top.index === l.from && top.origin === l.origin && l.to > l.from && l.to <= top.size, `${IN}.launch`, "must start at the index and origin of the top fan-out frame, a 'map' frame, and end in (from, size]");
    return { launch: { origin: l.origin, from: l.from, to: l.to, state: l.state } };
  }
  const kind = 'failed' in r ? 'failed' : 'fanIn';
  const f = r[kind];
  const at = `${IN}.${kind}`;
  check(isObject(f), IN, ONE_OF);
  check(ir.join !== undefined, at, notAccepted(ir, 'is not a join'));
  check(typeof f.join === 'string' && isInvocationName(f.join), `${at}.join`, 'must be an invocation name');
  check(isCount(f.size, MAX_SIZE) && f.size > 0, `${at}.size`, SIZE);
  check(isKey(f.origin), `${at}.origin`, KEY);
  const ref = { join: f.join, size: f.size, origin: f.origin };
  return kind === 'failed' ? { failed: ref } : { fanIn: ref };
}

/** A fold step after the first: the first step gets the fan-in and sends `fold` on with index 1 and up. */
function parseFold(f: unknown, ir: NodeIR): FoldState {
  check(ir.handler.kind === 'fold', 'unum.fold', notAccepted(ir, 'is not a fold'));
  check(isObject(f), 'unum.fold', 'must be an object');
  check(Array.isArray(f.items) && f.items.length <= MAX_SIZE && f.items.every(isKey), 'unum.fold.items', `must be an array of at most ${MAX_SIZE} checkpoint keys`);
  const items = f.items as string[];
  check(isCount(f.index, MAX_SIZE) && f.index > 0 && f.index < items.length, 'unum.fold.index', 'must be an integer in [1, items.length)');
  return { index: f.index, items };
}

function parseHeader(u: Record<string, unknown>, ir: NodeIR): Invocation {
  const on = `deployment ${ir.deployment || '(none)'}`;
  if (u.v !== ENVELOPE_VERSION) throw new UnumEventError(`${envelopeFormat(u.v)}; node ${ir.node} runs format ${ENVELOPE_VERSION} on ${on}`);
  check(u.workflow === ir.workflow, 'unum.workflow', thisFunctions('workflow', ir.workflow, u.workflow));
  if (u.deployment !== ir.deployment) {
    const sent = typeof u.deployment === 'string' ? `deployment ${u.deployment || '(none)'}` : `no deployment (${JSON.stringify(u.deployment)})`;
    throw new UnumEventError(`an envelope of ${sent} to node ${ir.node} of ${on}: a run stays on the deployment it started on`, undefined, DEPLOYMENT_MISMATCH);
  }
  check(isRunId(u.workflowId), 'unum.workflowId', `must match ${WORKFLOW_ID_PATTERN}`);
  check(u.node === ir.node, 'unum.node', thisFunctions('node', ir.node, u.node));
  check(isCount(u.iteration, MAX_ITERATION), 'unum.iteration', ITERATION);
  check(Array.isArray(u.fanOut) && u.fanOut.length <= MAX_DEPTH, 'unum.fanOut', `must be an array of at most ${MAX_DEPTH} frames`);
  check(Array.isArray(u.inputs) && u.inputs.length === 1, 'unum.inputs', 'must be an array of exactly one input');
  check(u.parent === undefined || isKey(u.parent), 'unum.parent', KEY);
  check(u.lease === undefined || isCount(u.lease, MAX_EPOCH_SECONDS), 'unum.lease', 'must be a non-negative integer (epoch seconds)');
  check(isGeneration(u.redrive), 'unum.redrive', REDRIVE);
  check(u.movedFrom === undefined || (u.redrive !== undefined && typeof u.movedFrom === 'string' && DEPLOYMENT_ID_PATTERN.test(u.movedFrom)), 'unum.movedFrom', 'must be a deployment id, beside redrive (a redrive that moved the run sets both)');
  const frames = (u.fanOut as unknown[]).map(parseFrame);
  const input = parseInput((u.inputs as unknown[])[0], ir, frames);
  return {
    workflowId: u.workflowId,
    iteration: u.iteration,
    frames,
    input,
    start: false,
    ...(u.parent === undefined ? {} : { parent: u.parent as string }),
    ...(u.fold === undefined ? {} : { fold: parseFold(u.fold, ir) }),
    ...(u.lease === undefined ? {} : { lease: u.lease as number }),
    ...(u.redrive === undefined ? {} : { redrive: u.redrive as number }),
  };
}

function parseEnvelope(u: unknown, ir: NodeIR): Invocation {
  check(isObject(u), 'unum', 'must be an object');
  try {
    return parseHeader(u, ir);
  } catch (e) {
    // Only this workflow's functions may invoke this one, so a malformed envelope naming a
    // run of ours (or of no workflow: an older envelope version) is a run that cannot go on.
    const ours = u.workflow === ir.workflow || u.workflow === undefined;
    throw e instanceof UnumEventError && ours && isRunId(u.workflowId) ? new UnumEventError(e.message, u.workflowId, e.error) : e;
  }
}

/**
 * The entry's reading of an event: an explicit start request is exactly
 * `{ input, workflowId? }`; an object with an `input`, `workflowId` or `unum`
 * key that is not one is rejected, not taken for the raw input; any other
 * event is the raw input. The run id defaults to the Lambda request id,
 * which Lambda keeps across its async retries of one event. The input must
 * fit in the entry's checkpoint.
 */
/** The entry takes start requests, every other node envelopes (with `unum`). */
export function parseEvent(event: unknown, ir: NodeIR, context: LambdaContext): Invocation {
  if (ir.entry) {
    const { workflowId, input, redrive } = parseStart(event, context.awsRequestId);
    return { workflowId, iteration: 0, frames: [], input: { value: input }, start: true, ...(redrive === undefined ? {} : { redrive }) };
  }
  check(isObject(event) && 'unum' in event, 'unum', `is missing: node ${ir.node} is not the entry and accepts envelopes only`);
  return parseEnvelope(event.unum, ir);
}
