/**
 * The workflow's envelope key `envkey#<workflow>` (docs/deploying-and-operating.md
 * "Who can do what: the trust model"): 32 random bytes that the workflow's
 * functions authenticate their envelopes with (runtime/contract/envelope-mac.ts).
 * Created once, by the first deploy's deployment resource, with a put that
 * keeps a key already there: a redeploy never rotates it, so envelopes in
 * flight (and parked for a redrive) stay valid across deployments. It never
 * expires (no `ttl`), and no grant to clients reads it.
 */
import { envelopeKeyKey } from './keys';
import { ABSENT, FORMAT, type Item, N, type PutRequest, TABLE_FORMAT, keyItem, put, readable } from './encoding';

/** Bytes of an envelope key: HMAC-SHA256's block-sized secret. */
export const ENVELOPE_KEY_BYTES = 32;
const SECRET = 'k';

/** Creates the key unless the workflow has one. */
export const envelopeKeyPut = (workflow: string, key: Uint8Array): PutRequest =>
  put({ ...keyItem(envelopeKeyKey(workflow)), [SECRET]: { B: key }, [FORMAT]: N(TABLE_FORMAT) }, ABSENT);

/** The key an item holds; undefined for no item or one that holds no key of the right size. Throws on a newer format (`UnumFormatError`). */
export function decodeEnvelopeKey(item: Item | undefined): Uint8Array | undefined {
  const key = item && readable(item)[SECRET]?.B;
  return key !== undefined && key.length === ENVELOPE_KEY_BYTES ? key : undefined;
}
