/**
 * The errors a function lets escape to Lambda (its async retries, then the
 * on-failure destination record the failure recorder reads), cut to a bound:
 * Lambda drops the failed event from a destination record over 256 KB
 * (runtime/entry/input-bounds.ts), and without the event the recorder cannot
 * tell which run failed. Lambda's Node.js runtime reports an error as its
 * name, message and stack (`errorType`, `errorMessage`, `trace`); the stack
 * repeats the message. A small error escapes unchanged.
 */
import { ERROR_BOUNDS, truncated } from '../contract/errors';
import type { LambdaContext } from '../contract/handler-api';

/** The most an escaping error's message takes in the record (its JSON, in UTF-8 bytes). */
const MESSAGE_BYTES = 12 * 1024;
/** The most the stack frames after the message take (their JSON). */
const FRAMES_BYTES = 8 * 1024;

/**
 * The most an escaping error takes in Lambda's destination record: its name
 * twice (`ERROR_BOUNDS.name` characters, JSON-escaped at worst 6 bytes each),
 * the message twice (the message, and the stack's first lines, where each
 * newline becomes a line of Lambda's `trace`: 3 bytes instead of 2) and the
 * frames, with room to spare.
 */
export const ESCAPING_ERROR_BYTES = 48 * 1024;

const jsonBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text), 'utf8');

/** `text` cut (with `truncated`'s marker) until its JSON takes at most `bytes`. */
function cutToJsonBytes(text: string, bytes: number): string {
  let cut = text;
  for (let max = text.length; jsonBytes(cut) > bytes; max = Math.floor(max / 2)) cut = truncated(text, max);
  return cut;
}

const isFrame = (line: string): boolean => /^\s+at /.test(line);

/** The error, cut in place (its class, and so its name and what rules match, kept) when it is too large; any other thrown value too. */
export function boundEscapingError(e: unknown): unknown {
  if (!(e instanceof Error)) return typeof e === 'string' ? cutToJsonBytes(e, MESSAGE_BYTES) : e;
  // Whatever the fields hold (a name of 404, say), only strings too long change.
  const name: unknown = typeof e.name === 'string' ? truncated(e.name, ERROR_BOUNDS.name) : e.name;
  const message: unknown = typeof e.message === 'string' ? cutToJsonBytes(e.message, MESSAGE_BYTES) : e.message;
  const stack = typeof e.stack === 'string' ? e.stack : '';
  if (name === e.name && message === e.message && jsonBytes(stack) <= MESSAGE_BYTES + FRAMES_BYTES) return e;
  const frames = cutToJsonBytes(stack.split('\n').filter(isFrame).join('\n'), FRAMES_BYTES);
  const bounded = Object.isFrozen(e) ? new Error(String(message)) : e;
  Object.assign(bounded, { name, message });
  bounded.stack = `${String(name)}: ${String(message)}${frames ? `\n${frames}` : ''}`;
  return bounded;
}

type Handler = (event: unknown, context: LambdaContext) => Promise<unknown>;

/** The handler, every error it throws cut to `ESCAPING_ERROR_BYTES`. */
export const withBoundedErrors = (handler: Handler): Handler => async (event, context) => {
  try {
    return await handler(event, context);
  } catch (e) {
    throw boundEscapingError(e);
  }
};
