/** A parked invocation `park#<workflow>#<workflowId>#<invocation>`: the event a redrive sends again. */
import { type RunRef, parkKey } from './keys';
import { type Item, N, PRESENT, S, TABLE_FORMAT, type UpdateRequest, num, readable, str, update } from './encoding';
import type { Envelope, StartRequest } from '../ir';

/** An invocation parked for a redrive: the function to invoke, its event (JSON), and until when (epoch s) its inputs are kept. */
export interface Parked {
  readonly functionName: string;
  readonly event: string;
  readonly until: number;
  /** The latest redrive that re-sent it (its generation, `parkResent`); absent: none did. */
  readonly resentBy?: number;
}

/** The redrive generation that last re-sent a parked invocation. */
const RESENT_BY = 'rb';

/**
 * Unconditional: every execution of one invocation parks the same event (a
 * later one's lease may be later: either is fine). An update, not a put: the
 * generation that re-sent it (`rb`) stays.
 */
export const parkedUpdate = (run: RunRef, invocation: string, p: Parked, ttl: number): UpdateRequest =>
  update(parkKey(run, invocation), 'SET fn = :fn, ev = :ev, ru = :ru, #ttl = :ttl, #fv = :fv', { ':fn': S(p.functionName), ':ev': S(p.event), ':ru': N(p.until), ':ttl': N(ttl), ':fv': N(TABLE_FORMAT) });

/**
 * Redrive `generation` re-sends the parked invocation: recorded on its item
 * before the invoke, never lowered (a slower, older redrive loses), never on
 * an item that is gone. A failure of an event of an older generation is then
 * stale (runtime/records/redrive-park.ts `failParked`).
 */
export const parkResent = (run: RunRef, invocation: string, generation: number): UpdateRequest =>
  update(parkKey(run, invocation), `SET ${RESENT_BY} = :g`, { ':g': N(generation) }, `${PRESENT} AND (attribute_not_exists(${RESENT_BY}) OR ${RESENT_BY} < :g)`);

/** A parked invocation as read; undefined for no item. Throws on a newer format (`UnumFormatError`). */
export function decodeParked(item: Item | undefined): Parked | undefined {
  if (item) readable(item);
  const functionName = item && str(item, 'fn');
  const event = item && str(item, 'ev');
  if (!item || functionName === undefined || event === undefined) return undefined;
  const resentBy = num(item, RESENT_BY);
  return { functionName, event, until: num(item, 'ru') ?? 0, ...(resentBy === undefined ? {} : { resentBy }) };
}

/** Whether an UpdateItem of a run record sets the run's status (a final one, or RUNNING again by a redrive): not a park, not a TTL renewal. */

/**
 * The event of a parked invocation as redrive `generation` re-sends it: it
 * carries the generation (runtime/contract/ir/ `EnvelopeHeader.redrive`), so that a failure
 * of an older delivery is known to be stale (`failParked`).
 */
export function resentEvent(event: string, generation: number): string {
  const e = JSON.parse(event) as Envelope | StartRequest;
  // An envelope keeps its MAC, which does not cover the generation (runtime/contract/envelope-mac.ts).
  return JSON.stringify('unum' in e ? { ...e, unum: { ...e.unum, redrive: generation } } : { ...e, redrive: generation });
}
