/**
 * The error a function lets escape to Lambda is cut so that Lambda's
 * on-failure record keeps the failed event (issue 35, B): whatever it holds,
 * the error document Lambda's Node.js runtime makes of it (name, message,
 * the stack's lines) stays within `ESCAPING_ERROR_BYTES`; a small error
 * escapes unchanged, and the class (what rules match) is kept.
 */
import fc from 'fast-check';
import { boundEscapingError, ESCAPING_ERROR_BYTES, withBoundedErrors } from '../../runtime/entry/escaping-error';

/** What Lambda's Node.js runtime reports of a thrown error, as JSON bytes. */
function lambdaDocumentBytes(e: unknown): number {
  const doc = e instanceof Error
    ? { errorType: e.name, errorMessage: e.message, trace: (e.stack ?? '').split('\n') }
    : { errorType: 'string', errorMessage: String(e), trace: [] };
  return Buffer.byteLength(JSON.stringify(doc), 'utf8');
}

class CardDeclined extends Error {
  override readonly name = 'CardDeclined';
}

test('a small error escapes as it was thrown', () => {
  const e = new CardDeclined('no funds');
  const stack = e.stack;
  expect(boundEscapingError(e)).toBe(e);
  expect(e.stack).toBe(stack);
});

test('a 400 KB message is cut, its class and name kept, the stack rebuilt around the cut message', () => {
  const e = new CardDeclined(`declined: ${'x'.repeat(400 * 1024)}`);
  const bounded = boundEscapingError(e) as Error;
  expect(bounded).toBe(e);
  expect(bounded).toBeInstanceOf(CardDeclined);
  expect(bounded.message).toMatch(/^declined: x+\.\.\. \[truncated from \d+ characters\]$/);
  expect(bounded.stack?.split('\n')[0]).toBe(`CardDeclined: ${bounded.message}`);
  expect(bounded.stack).toMatch(/\n {4}at /);
  expect(lambdaDocumentBytes(bounded)).toBeLessThanOrEqual(ESCAPING_ERROR_BYTES);
});

test('whatever the name, message and stack hold, the error document fits', () => {
  const text = fc.oneof(fc.string({ maxLength: 2000 }), fc.constantFrom('\n', '\u0001', '\u{1F600}', '"', 'x').chain((c) => fc.integer({ min: 0, max: 200_000 }).map((n) => c.repeat(n))));
  fc.assert(
    fc.property(text, text, text, (name, message, stack) => {
      const e = Object.assign(new Error(message), { name });
      e.stack = stack;
      const bounded = boundEscapingError(e);
      expect(lambdaDocumentBytes(bounded)).toBeLessThanOrEqual(ESCAPING_ERROR_BYTES);
    }),
    { numRuns: 60, verbose: 1 },
  );
});

test('a thrown string is cut; other values and fields of other types pass as they are', async () => {
  const thrown = await withBoundedErrors(async () => { throw 'y'.repeat(300_000); })(null, { awsRequestId: 'r' }).then(() => undefined, (e: unknown) => e);
  expect(typeof thrown).toBe('string');
  expect(lambdaDocumentBytes(thrown)).toBeLessThanOrEqual(ESCAPING_ERROR_BYTES);
  const odd = Object.assign(new Error('m'), { name: 404 });
  expect(boundEscapingError(odd)).toBe(odd);
  expect(odd.name).toBe(404);
  expect(boundEscapingError(42)).toBe(42);
});
