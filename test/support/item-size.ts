/** DynamoDB's item size rules (attribute names + values), to check items stay small. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

const numberSize = (n: string): number => {
  const digits = n.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
};

export function itemSize(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, v] of Object.entries(item)) {
    size += Buffer.byteLength(name);
    if (v.S !== undefined) size += Buffer.byteLength(v.S);
    else if (v.N !== undefined) size += numberSize(v.N);
    else if (v.NS !== undefined) size += 3 + v.NS.reduce((a, n) => a + numberSize(n), 0);
    else size += Buffer.byteLength(JSON.stringify(v));
  }
  return size;
}
