#!/usr/bin/env node
// Generates schema/ir.schema.json from the NodeIR type in runtime/contract/ir/.
// `node scripts/gen-ir-schema.js` writes the file; `--check` exits 1 if it is stale.
// test/compiler/schema.test.ts regenerates it in memory so the file cannot drift.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createGenerator } = require('ts-json-schema-generator');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'schema', 'ir.schema.json');

/** The schema text, exactly as committed. */
function generateIrSchema() {
  const generator = createGenerator({
    path: path.join(ROOT, 'runtime', 'contract', 'ir', 'index.ts'),
    type: 'NodeIR',
    // Only the IR's files are read; other files' type errors must not matter here.
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    additionalProperties: false,
  });
  return JSON.stringify(generator.createSchema('NodeIR'), null, 2) + '\n';
}

module.exports = { generateIrSchema, OUT };

if (require.main === module) {
  const text = generateIrSchema();
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text;
    if (!same) console.error(`${path.relative(ROOT, OUT)} is stale: run node scripts/gen-ir-schema.js`);
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
}
