/**
 * DynamoDB item sizes as AWS bills them ("Item sizes and formats" in the
 * DynamoDB developer guide): attribute name bytes plus value bytes, where a
 * number takes 1 byte per two significant digits plus 1, a list or map 3 bytes
 * plus 1 byte per element, and sets the sum of their members.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** DynamoDB JSON, as on the wire (`{"S": "x"}`, `{"N": "1"}`, ...). */
export type WireValue = { [K in keyof AttributeValue]?: unknown };
export type WireItem = Record<string, WireValue>;

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

function numberSize(n: string): number {
  // Significant digits: no sign, no exponent, no leading or trailing zeros.
  const digits = n.replace(/^[-+]/, '').replace(/[eE].*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

export function valueSize(v: WireValue): number {
  if (typeof v.S === 'string') return utf8(v.S);
  if (typeof v.N === 'string') return numberSize(v.N);
  if (typeof v.B === 'string') return Buffer.from(v.B, 'base64').length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (Array.isArray(v.SS)) return (v.SS as string[]).reduce((s, x) => s + utf8(x), 0);
  if (Array.isArray(v.NS)) return (v.NS as string[]).reduce((s, x) => s + numberSize(x), 0);
  if (Array.isArray(v.BS)) return (v.BS as string[]).reduce((s, x) => s + Buffer.from(x, 'base64').length, 0);
  if (Array.isArray(v.L)) return 3 + (v.L as WireValue[]).reduce((s, x) => s + 1 + valueSize(x), 0);
  if (v.M && typeof v.M === 'object') return 3 + Object.entries(v.M as WireItem).reduce((s, [k, x]) => s + 1 + utf8(k) + valueSize(x), 0);
  return 0;
}

/** Size of one attribute: its name plus its value. */
export function attributeSize(name: string, v: WireValue): number {
  return utf8(name) + valueSize(v);
}

export function itemSize(item: WireItem): number {
  return Object.entries(item).reduce((s, [k, v]) => s + attributeSize(k, v), 0);
}
