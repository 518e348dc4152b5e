/**
 * Lambda's on-failure destination record, and which run and node it names:
 * the failure recorder (runtime/entry/failure-recorder.ts) ends that run, and
 * the client's dead-letter recovery (lib/client/recover.ts) reads the same
 * record the same way.
 */
import { ENV, WORKFLOW_ID_PATTERN } from './ir';
import { isObject, parseStart } from './start-request';
import { decodeTaskToken } from './task-token';

/** Lambda's destination record for a failed async invocation. */
export interface FailureRecord {
  readonly version?: string;
  readonly timestamp?: string;
  readonly requestContext: {
    readonly requestId: string;
    readonly functionArn: string;
    readonly condition: string;
    readonly approximateInvokeCount?: number;
  };
  readonly requestPayload?: unknown;
  readonly responseContext?: unknown;
  readonly responsePayload?: { readonly errorType?: string; readonly errorMessage?: string; readonly trace?: readonly string[] } | null;
}

/** The run id a start request names (the Lambda request id without one); none for a malformed one, which names no run. */
function startId(event: unknown, requestId: string): string | undefined {
  try {
    return parseStart(event, requestId).workflowId;
  } catch {
    return undefined;
  }
}

/**
 * Lambda leaves the payloads out of a destination record over 256 KB (the
 * failed event and the error together): such a record names no event, so no
 * run, and a raw start's request id is no run of its own then either.
 */
export const payloadDropped = (record: FailureRecord): boolean => record.requestPayload === undefined;

/** The failed invocation's workflow id and node, as far as the record tells, read as the handler reads the event. */
export function identify(record: FailureRecord, workflow = process.env[ENV.workflow]): { workflowId?: string; node: string } {
  const req = record.requestPayload;
  const fnName = record.requestContext.functionArn.split(':')[6] ?? record.requestContext.functionArn;
  if (payloadDropped(record)) return { node: fnName };
  // A callback Task's timeout or heartbeat check (runtime/callbacks/callback.ts): its token names the run and the Task.
  if (isObject(req) && isObject(req.unumTask)) {
    const token = decodeTaskToken(req.unumTask.token);
    const ours = typeof token !== 'string' && token.workflow === workflow;
    return ours ? { workflowId: token.workflowId, node: token.node } : { node: process.env[ENV.entryNode] ?? '' };
  }
  const unum = isObject(req) && isObject(req.unum) ? req.unum : undefined;
  // An envelope of another workflow names none of this workflow's runs (none before version 2 named its workflow).
  const ours = unum && (unum.workflow === undefined || unum.workflow === workflow);
  const id = unum ? (ours ? unum.workflowId : undefined) : startId(req, record.requestContext.requestId);
  // Only the entry function receives events without an envelope.
  const node = typeof unum?.node === 'string' ? unum.node : (process.env[ENV.entryNode] ?? fnName);
  return { ...(typeof id === 'string' && WORKFLOW_ID_PATTERN.test(id) ? { workflowId: id } : {}), node };
}
