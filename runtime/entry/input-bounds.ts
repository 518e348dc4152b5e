/**
 * What any event may carry, checked before it is parsed and before anything
 * is read or written (docs/architecture.md "The envelope", "Bounds"): values
 * nest at most `JSON_DEPTH_LIMIT` levels (so that no recursive JSON code of
 * the runtime, or Lambda's, can overflow the stack after the run record
 * exists), and a start request fits, with the error of a failed entry, in
 * Lambda's on-failure destination record (so that the failure recorder
 * always finds the run it fails). A refused event is a rejection
 * (runtime/entry/rejection.ts): a refused start ends FAILED (where its run
 * has no record yet), a refused envelope records nothing.
 */
import { UnumEventError } from '../contract/errors';
import type { LambdaContext } from '../contract/handler-api';
import type { NodeIR } from '../contract/ir';
import { isObject } from '../contract/start-request';
import { byteLength } from '../contract/table';
import { JSON_DEPTH_LIMIT, tooDeep } from '../records/payload';
import { ESCAPING_ERROR_BYTES } from './escaping-error';
import { parseEvent } from './envelope';

/**
 * Lambda's limit on an asynchronous invocation's destination record: when
 * the failed event and the error together exceed 256 KB, Lambda drops both
 * payloads from the record it sends (Lambda API reference, `OnFailure`;
 * Developer Guide, "Capturing records of Lambda asynchronous invocations").
 */
export const DESTINATION_RECORD_LIMIT_BYTES = 256 * 1024;

/** The rest of a destination record: version, timestamps, request and response contexts, with room to spare. */
const RECORD_ENVELOPE_BYTES = 4 * 1024;

/** The largest start request (its JSON): with the largest error the runtime lets escape, its failure record keeps both. */
export const START_EVENT_LIMIT_BYTES = DESTINATION_RECORD_LIMIT_BYTES - ESCAPING_ERROR_BYTES - RECORD_ENVELOPE_BYTES;

/** The start request with its input left out: what names the run, read as `parseEvent` reads it. */
function withoutInput(event: unknown): unknown {
  const request = isObject(event) && ('input' in event || 'workflowId' in event || 'unum' in event);
  if (!request) return null;
  return 'input' in event ? { ...event, input: null } : event;
}

/** What the event carries, and how many levels its wrapping adds to the value (an envelope's: `unum.inputs[0].value`). */
function inputField(event: unknown, ir: NodeIR): { field: string; wrapping: number } {
  if (!ir.entry) return { field: 'a value of the envelope', wrapping: 4 };
  return isObject(event) && 'input' in event ? { field: 'the start input', wrapping: 1 } : { field: 'the start input (the raw event)', wrapping: 0 };
}

const refused = (ir: NodeIR, why: string, workflowId?: string): UnumEventError => new UnumEventError(`workflow ${ir.workflow}, node ${ir.node}: ${why}`, workflowId);

/**
 * Throws the `UnumEventError` that rejects `event` when it nests too deeply,
 * or a start request is too large. At the entry, a malformed start request
 * is refused for that first, as `parseEvent` would refuse it (read with its
 * input left out: the input may be what is too deep), and a refused start
 * names its run. An envelope that deep names no run: this workflow's
 * functions never send one (a handler result is checked before its commit),
 * so it is not theirs, and must end no run it names.
 */
export function checkEventBounds(event: unknown, ir: NodeIR, context: LambdaContext): void {
  const { field, wrapping } = inputField(event, ir);
  const at = tooDeep(event, JSON_DEPTH_LIMIT + wrapping, '$');
  const tooDeepWhy = `${field} nests deeper than ${JSON_DEPTH_LIMIT} levels (at ${at})`;
  if (!ir.entry) {
    if (at !== undefined) throw refused(ir, tooDeepWhy);
    return;
  }
  const { workflowId } = parseEvent(withoutInput(event), ir, context);
  if (at !== undefined) throw refused(ir, tooDeepWhy, workflowId);
  const bytes = byteLength(JSON.stringify(event) ?? 'null');
  if (bytes > START_EVENT_LIMIT_BYTES) {
    throw refused(ir, `a start request of ${bytes} bytes exceeds ${START_EVENT_LIMIT_BYTES} bytes, the most a failed start's on-failure record keeps (Lambda drops the event from a record over ${DESTINATION_RECORD_LIMIT_BYTES} bytes)`, workflowId);
  }
}
