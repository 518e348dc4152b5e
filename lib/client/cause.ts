/**
 * A cause for one line: a handler's cause is Lambda's error document as JSON
 * (`{"errorType","errorMessage","trace"}`, as in Step Functions), shown by
 * its message; any other cause as it is.
 */
export function causeSummary(cause: string): string {
  try {
    const doc = JSON.parse(cause) as { errorMessage?: unknown } | null;
    if (typeof doc?.errorMessage === 'string') return doc.errorMessage;
  } catch {
    // Not JSON: a message of its own.
  }
  return cause;
}
