import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateIr } from '../support/ir-schema';
import { compile, task } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateIrSchema, OUT } = require('../../scripts/gen-ir-schema.js') as { generateIrSchema: () => string; OUT: string };

describe('schema/ir.schema.json', () => {
  it('is exactly what scripts/gen-ir-schema.js generates from runtime/contract/ir/ (run it after changing the IR)', () => {
    expect(path.relative(path.join(__dirname, '../..'), OUT)).toBe(path.join('schema', 'ir.schema.json'));
    expect(fs.readFileSync(OUT, 'utf8')).toBe(generateIrSchema());
  });
});

describe('validateIr', () => {
  const valid = JSON.parse(JSON.stringify(compile(task('A').next(task('B'))).nodes.A.ir));

  it('accepts compiled IR', () => {
    expect(validateIr(valid)).toEqual({ valid: true, errors: [] });
  });

  it('rejects a wrong version, an unknown instruction and extra fields', () => {
    expect(validateIr({ ...valid, version: 1 }).valid).toBe(false);
    expect(validateIr({ ...valid, instructions: [{ op: 'jump' }] }).valid).toBe(false);
    expect(validateIr({ ...valid, extra: 1 }).valid).toBe(false);
    const { settings: _settings, ...missing } = valid;
    const result = validateIr(missing);
    expect(result.valid).toBe(false);
    expect(result.errors).toContain("/ must have required property 'settings'");
  });
});
