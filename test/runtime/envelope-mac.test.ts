/**
 * The envelope's MAC (runtime/contract/envelope-mac.ts): what a function
 * seals, a receiver verifies after Lambda's JSON round trip, for any JSON a
 * handler may put in an envelope (integer-like keys, unicode and lone
 * surrogates, -0, large and small numbers); any change of a field the sender
 * decided breaks it, and only a redrive's own fields are left out.
 */
import fc from 'fast-check';
import { macVerifies, sealEnvelope, sealedContent } from '../../runtime/contract/envelope-mac';
import { ENVELOPE_VERSION, type Envelope, type Json } from '../../runtime/contract/ir';
import { TEST_ENVELOPE_KEY } from '../support/envelope-key';

const OTHER_KEY = new Uint8Array(32).fill(8);

/** JSON as a handler returns it: any values, keys that look like array indexes, every code unit. */
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Json>(null, true, false, -0, 0, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 5e-324, 2 ** 53 + 2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.nat(300).map(String), fc.constantFrom('__proto__', '-1', '01', '4294967295')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const envelope = (value: Json, extra: Record<string, unknown> = {}): Envelope =>
  ({ unum: { v: ENVELOPE_VERSION, workflow: 'W', deployment: 'd0123456789abcdef0123', workflowId: 'run-1', node: 'B', iteration: 2, fanOut: [], inputs: [{ value }], lease: 1_900_000_000, ...extra } }) as Envelope;

/** What the receiver gets: the sender's event through JSON, as Lambda carries it. */
const received = (e: Envelope): { unum: Record<string, unknown>; mac: unknown } => JSON.parse(JSON.stringify(e)) as { unum: Record<string, unknown>; mac: unknown };

test('a sealed envelope verifies after a JSON round trip, whatever JSON it carries; the content is stable across round trips', () => {
  fc.assert(
    fc.property(json, (value) => {
      const sent = sealEnvelope(TEST_ENVELOPE_KEY, envelope(value));
      const got = received(sent);
      expect(sealedContent(got.unum)).toBe(sealedContent(sent.unum as unknown as Record<string, unknown>));
      expect(sealedContent(received(received(sent) as unknown as Envelope).unum)).toBe(sealedContent(got.unum));
      expect(macVerifies(TEST_ENVELOPE_KEY, got.unum, got.mac)).toBe(true);
      expect(macVerifies(OTHER_KEY, got.unum, got.mac)).toBe(false);
    }),
    { numRuns: 300 },
  );
});

test('changing the input, the run, the node or any field the sender decided breaks the MAC', () => {
  const changes: Record<string, unknown>[] = [
    { inputs: [{ value: { approvedBy: 'attacker' } }] },
    { workflowId: 'run-2' },
    { node: 'C' },
    { iteration: 3 },
    { lease: 1_900_000_001 },
    { deployment: 'd0123456789abcdef0124' },
    { parent: 'ckpt#' + 'p'.repeat(43) },
    { fanOut: [{ index: 0, size: 1, kind: 'map', iteration: 0, origin: 'ckpt#' + 'o'.repeat(43) }] },
  ];
  fc.assert(
    fc.property(json, fc.constantFrom(...changes), (value, change) => {
      const { unum, mac } = received(sealEnvelope(TEST_ENVELOPE_KEY, envelope(value)));
      expect(macVerifies(TEST_ENVELOPE_KEY, { ...unum, ...change }, mac)).toBe(false);
    }),
    { numRuns: 100 },
  );
});

test('a redrive\'s fields are outside the MAC: the generation, and a move that keeps the sealed deployment as movedFrom', () => {
  const { unum, mac } = received(sealEnvelope(TEST_ENVELOPE_KEY, envelope({ a: 1 })));
  expect(macVerifies(TEST_ENVELOPE_KEY, { ...unum, redrive: 3 }, mac)).toBe(true);
  expect(macVerifies(TEST_ENVELOPE_KEY, { ...unum, deployment: 'd9999999999999999999a', movedFrom: unum.deployment, redrive: 1 }, mac)).toBe(true);
  // movedFrom must name the deployment it was sealed on.
  expect(macVerifies(TEST_ENVELOPE_KEY, { ...unum, deployment: 'd9999999999999999999a', movedFrom: 'd9999999999999999999a', redrive: 1 }, mac)).toBe(false);
  expect(macVerifies(TEST_ENVELOPE_KEY, { ...unum, deployment: 'd9999999999999999999a', redrive: 1 }, mac)).toBe(false);
});

test('a MAC that is not 43 base64url characters is none', () => {
  const { unum } = received(sealEnvelope(TEST_ENVELOPE_KEY, envelope(1)));
  for (const mac of [undefined, null, 7, '', 'x'.repeat(42), 'x'.repeat(44), `${'x'.repeat(42)}=`]) expect(macVerifies(TEST_ENVELOPE_KEY, unum, mac)).toBe(false);
});
