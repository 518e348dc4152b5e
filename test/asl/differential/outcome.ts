/** How a run ended, in the terms both interpreters share, and how two outcomes are compared. */
import type { Json } from '../../../runtime/contract/ir';

export type Outcome =
  | { readonly status: 'SUCCEEDED'; readonly output: Json }
  /** `cause` is compared only for errors of the workflow (Fail states, handlers), not the interpreters' own States.* messages. */
  | { readonly status: 'FAILED'; readonly error: string; readonly cause?: string };

export const succeeded = (output: Json): Outcome => ({ status: 'SUCCEEDED', output });
export const failed = (error: string, cause?: string): Outcome => ({ status: 'FAILED', error, ...(cause === undefined ? {} : { cause }) });

/**
 * A handler error's Cause is Lambda's error document as JSON
 * (`{"errorType","errorMessage","trace"}`): the trace lists the code's own
 * stack frames (a bundle for unum, the sources for the peer), so the
 * comparison keeps the type and the message.
 */
function withoutTrace(s: string): string {
  if (!s.startsWith('{"errorType"')) return s;
  try {
    const doc = JSON.parse(s) as { errorType?: unknown; errorMessage?: unknown; trace?: unknown };
    if (!Array.isArray(doc.trace)) return s;
    return JSON.stringify({ errorType: doc.errorType, errorMessage: doc.errorMessage });
  } catch {
    return s;
  }
}

function normalizeJson(v: Json): Json {
  if (typeof v === 'string') return withoutTrace(v);
  if (Array.isArray(v)) return v.map(normalizeJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalizeJson(x)]));
  return v;
}

/** The outcome as compared: causes of States.* errors dropped, traces dropped from error documents. */
export function comparable(o: Outcome): Outcome {
  if (o.status === 'SUCCEEDED') return succeeded(normalizeJson(o.output));
  return failed(o.error, o.error.startsWith('States.') || o.cause === undefined ? undefined : withoutTrace(o.cause));
}
