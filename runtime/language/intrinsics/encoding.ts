/**
 * States.Base64Encode, States.Base64Decode and States.Hash. Strings are
 * their UTF-8 bytes; Step Functions takes at most 10,000 characters in each.
 */
import { createHash } from 'node:crypto';
import type { Json } from '../../contract/ir';
import { atMost, fail, MAX_CHARACTERS, type IntrinsicFunction } from './signature';

/** Step Functions' algorithm names -> node:crypto's. */
export const HASH_ALGORITHMS: Readonly<Record<string, string>> = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** Standard Base64 with its padding; line breaks (MIME) are let through. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const input = { name: 'data', type: 'string', check: atMost(MAX_CHARACTERS) } as const;

function decode(text: string): string {
  const compact = text.replace(/\r?\n/g, '');
  if (!BASE64.test(compact)) fail(`States.Base64Decode: not Base64: ${text.slice(0, 60)}`);
  try {
    return UTF8.decode(Buffer.from(compact, 'base64'));
  } catch {
    return fail('States.Base64Decode: the decoded bytes are not UTF-8 text');
  }
}

export const ENCODING_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.Base64Encode': { params: [input], returns: 'string', run: ([text]) => Buffer.from(text as string, 'utf8').toString('base64') },
  'States.Base64Decode': { params: [input], returns: 'string', run: ([text]) => decode(text as string) },
  'States.Hash': {
    params: [
      input,
      {
        name: 'algorithm',
        type: 'string',
        check: (v: Json) => (Object.hasOwn(HASH_ALGORITHMS, v as string) ? undefined : `must be one of ${Object.keys(HASH_ALGORITHMS).join(', ')}`),
      },
    ],
    returns: 'string',
    run: ([text, algorithm]) => createHash(HASH_ALGORITHMS[algorithm as string]).update(text as string, 'utf8').digest('hex'),
  },
};
