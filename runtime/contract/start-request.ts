/**
 * The start request the entry function accepts (docs/architecture.md "The
 * envelope"): `{input, workflowId?, redrive?}`, or any other event as the
 * input of a run named by Lambda's request id. The entry parses it so, and the
 * failure recorder and the client read a failed start's run id the same way.
 */
import { UnumEventError } from './errors';
import { WORKFLOW_ID_PATTERN, type Json } from './ir';
import { byteLength, MAX_VALUE_BYTES } from './table';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isCount = (v: unknown, max: number): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
export const isRunId = (v: unknown): v is string => typeof v === 'string' && WORKFLOW_ID_PATTERN.test(v);
/** A redrive generation (runtime/contract/ir `EnvelopeHeader.redrive`): absent, or the run's redrive count when it re-sent the event. */
export const isGeneration = (v: unknown): boolean => v === undefined || (isCount(v, Number.MAX_SAFE_INTEGER) && v > 0);

const START_REQUEST = 'a start request is exactly {input, workflowId?, redrive?}';
export const REDRIVE = 'must be a positive integer (the redrive that re-sent it)';

export function parseStart(event: unknown, requestId: string): { workflowId: string; input: Json; redrive?: number } {
  const request = isObject(event) && ('input' in event || 'workflowId' in event || 'unum' in event) ? event : undefined;
  const envelope = request !== undefined && 'unum' in request;
  const workflowId = request?.workflowId === undefined ? requestId : request.workflowId;
  // An envelope's run id is no run this request starts: it is not recorded.
  const reject = (why: string): UnumEventError => new UnumEventError(`malformed start request: ${why}`, isRunId(workflowId) && !envelope ? workflowId : undefined);
  if (request) {
    if (envelope) throw reject('the entry function accepts start requests only, not envelopes');
    const extra = Object.keys(request).filter((k) => k !== 'input' && k !== 'workflowId' && k !== 'redrive');
    if (extra.length > 0) throw reject(`unexpected key ${JSON.stringify(extra[0])}: ${START_REQUEST}`);
    if (!('input' in request)) throw reject(`input is missing: ${START_REQUEST}`);
    if (!isGeneration(request.redrive)) throw reject(`redrive ${REDRIVE}`);
  }
  if (!isRunId(workflowId)) throw reject(`workflowId must match ${WORKFLOW_ID_PATTERN}`);
  const input = ((request ? request.input : event) ?? null) as Json;
  const bytes = byteLength(JSON.stringify(input));
  if (bytes > MAX_VALUE_BYTES) throw reject(`input of ${bytes} bytes exceeds the ${MAX_VALUE_BYTES} bytes the entry's checkpoint can hold`);
  return { workflowId, input, ...(request?.redrive === undefined ? {} : { redrive: request.redrive as number }) };
}
