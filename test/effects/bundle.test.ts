/**
 * Effects are bundled only into functions whose handler imports them: the
 * core runtime carries the handler context and nothing of the operations.
 */
import * as path from 'node:path';
import { bundleNode } from '../../lib/construct/bundling';

const OPTIONS = { minify: true, sourceMap: false, bundleAwsSdk: false, target: 'node22' };
const code = (entry: string): string => bundleNode(path.join(__dirname, 'fixtures', entry), OPTIONS).files['index.js'];

test('a handler without effects gets the context but none of the operations', () => {
  const plain = code('handlers.ts');
  expect(plain).toContain('unum-cdk.effects-port');
  for (const operation of ['TransactWriteItemsCommand', 'pg_xact_status', 'unumOps_', 'unum_effects']) expect(plain).not.toContain(operation);
});

test('a handler importing the effects gets them, the PostgreSQL strategies included', () => {
  const withEffects = code('effect-handlers.ts');
  for (const operation of ['TransactWriteItemsCommand', 'pg_xact_status', 'unumOps_', 'unum_effects']) expect(withEffects).toContain(operation);
  expect(withEffects).not.toMatch(/require\("pg"\)/);
});
