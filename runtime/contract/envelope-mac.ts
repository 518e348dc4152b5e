/**
 * The MAC that authenticates an envelope (docs/deploying-and-operating.md
 * "Who can do what: the trust model"): HMAC-SHA256, under the workflow's
 * envelope key (runtime/contract/table/envelope-key.ts), of the header as its
 * sender made it. Only the workflow's functions hold the key, so a function
 * that verifies it knows the envelope was sent by a predecessor of its run (or
 * is a copy of one: a replay, which the exactly-once step absorbs).
 *
 * The content is `JSON.stringify` of the header as parsed: a JSON round trip
 * keeps it byte for byte (property order, integer-like keys first, numbers in
 * their shortest form, -0 as 0, escapes), so the receiver computes the bytes
 * the sender did without a canonical encoder (test/runtime/envelope-mac.test.ts).
 *
 * Two fields are a redrive's, not the sender's, and are left out: `redrive`
 * (the generation that re-sent it) and `movedFrom` (the deployment the sender
 * sealed it on, when a redrive moved the run; the content then has that
 * deployment back). The receiver checks both against the table instead
 * (runtime/entry/envelope-auth.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Envelope } from './ir';

/** Separates these MACs from any other use of the key, and from another envelope format's. */
const DOMAIN = 'unum-envelope-4\n';
/** base64url of the 32 bytes of HMAC-SHA256. */
const MAC_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The bytes a MAC covers: the header without a redrive's fields, on the deployment it was sealed on. */
export function sealedContent(header: Record<string, unknown>): string {
  const { redrive: _redrive, movedFrom, ...sent } = header;
  return JSON.stringify(movedFrom === undefined ? sent : { ...sent, deployment: movedFrom });
}

const macOf = (key: Uint8Array, header: Record<string, unknown>): string =>
  createHmac('sha256', key).update(DOMAIN).update(sealedContent(header)).digest('base64url');

/** `envelope` with the MAC of its header under `key`: what a function sends, schedules or parks. */
export const sealEnvelope = (key: Uint8Array, envelope: Envelope): Envelope => ({ unum: envelope.unum, mac: macOf(key, envelope.unum as unknown as Record<string, unknown>) });

/** Whether `mac` is the MAC of `header` under `key` (compared in constant time). */
export function macVerifies(key: Uint8Array, header: Record<string, unknown>, mac: unknown): boolean {
  if (typeof mac !== 'string' || !MAC_PATTERN.test(mac)) return false;
  return timingSafeEqual(Buffer.from(macOf(key, header)), Buffer.from(mac));
}
