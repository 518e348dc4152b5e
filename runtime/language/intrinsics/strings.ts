/** The string intrinsics: States.Format and States.StringSplit. */
import type { Json } from '../../contract/ir';
import { fail, type IntrinsicFunction } from './signature';

/** States.Format's arguments: strings as they are, numbers, booleans and null as JSON. */
function formatValue(v: Json): string {
  if (typeof v === 'object' && v !== null) fail('States.Format arguments must be strings, numbers, booleans or null');
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Every character of the delimiter splits (Step Functions' example splits
 * "This.is+a,test=string" at ".+,="), and no piece is empty: delimiters in a
 * row, at the start or at the end give no empty strings.
 */
export function stringSplit(text: string, delimiters: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const c of text) {
    if (!delimiters.includes(c)) piece += c;
    else if (piece) {
      pieces.push(piece);
      piece = '';
    }
  }
  if (piece) pieces.push(piece);
  return pieces;
}

export const STRING_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.Format': {
    // The template is a string literal: parsing checks it and splits it into `parts`.
    params: [{ name: 'template', type: 'string' }],
    rest: { name: 'value', type: 'any' },
    returns: 'string',
    run: (args, { call }) => (call.parts as string[]).reduce((out, part, k) => out + formatValue(args[k]) + part),
  },
  'States.StringSplit': {
    params: [
      { name: 'string', type: 'string' },
      { name: 'delimiters', type: 'string' },
    ],
    returns: 'array',
    run: ([text, delimiters]) => stringSplit(text as string, delimiters as string),
  },
};
