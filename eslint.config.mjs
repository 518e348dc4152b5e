import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Attribute value tags of DynamoDB's JSON (`{ S: "..." }`, `{ N: "1" }`, ...). */
const ATTRIBUTE_TAG = '/^(S|N|B|SS|NS|BS|M|L|NULL|BOOL)$/';
const KEY_PREFIX = '/(^|[^\\w])(ckpt|run|fanin|hist)#/';
const EXPRESSION = '/\\b(attribute_(not_)?exists|if_not_exists)\\(|^(SET|ADD|REMOVE) [#\\w]/';
const TABLE_LAYOUT = 'The table layout is defined once, in runtime/contract/table.ts: use its key builders, encoders and decoders (docs/architecture.md "Table").';
/**
 * Ways to name the table's items and attributes outside runtime/contract/table.ts: key
 * prefixes, attribute maps and reads, DynamoDB expressions and placeholder
 * names, the distinctive attribute names, the key attribute.
 */
const TABLE_SYNTAX = [
  `Literal[value=${KEY_PREFIX}]`,
  `Literal[regex.pattern=${KEY_PREFIX}]`,
  `TemplateElement[value.raw=${KEY_PREFIX}]`,
  `Property:not([key.value=/^:/]) > ObjectExpression.value > Property[key.name=${ATTRIBUTE_TAG}]`,
  `MemberExpression[property.name=${ATTRIBUTE_TAG}] > MemberExpression.object[computed=false]`,
  `MemberExpression[property.name=${ATTRIBUTE_TAG}] > MemberExpression.object[computed=true][property.type='Literal']`,
  `Literal[value=${EXPRESSION}]`,
  `TemplateElement[value.raw=${EXPRESSION}]`,
  'Property[key.value=/^#/] > Literal.value',
  // The attribute names no other meaning could have (`v`, `status`, `node` ... are caught in the forms above).
  'Literal[value=/^(resultRef|startedAt|finishedAt|inv|indexes|durationMs|fanInJoin|fanInSize)$/]',
  "Property[key.name='pk']",
  "TSPropertySignature[key.name='pk']",
  "MemberExpression[property.name='pk']",
  "Literal[value='pk']",
].map((selector) => ({ selector, message: TABLE_LAYOUT }));

export default tseslint.config(
  { ignores: ['dist/**', 'cdk.out/**', 'node_modules/**', '**/*.js', '**/*.mjs', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-eval': 'error',
      'no-new-func': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/lib/**', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'] }],
    },
  },
  // Layers of lib/ (docs/architecture.md, "Layers"): each imports only the layers below it.
  layer('definition', ['compiler', 'asl', 'construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli'], 'the DSL is the lowest layer of lib/: it imports only runtime/'),
  layer('compiler', ['asl', 'construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli'], 'the compiler imports only the DSL and runtime/ (the ASL importer builds on it)'),
  layer('asl', ['construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli'], 'the ASL importer builds on the DSL and the compiler only'),
  layer('assembly', ['definition', 'compiler', 'asl', 'construct', 'client', 'local', 'graph', 'cost', 'cli'], 'the cloud assembly reader reads JSON: it imports only runtime/'),
  layer('client', ['definition', 'compiler', 'asl', 'construct', 'local', 'cost', 'cli'], 'the client reads tables and the cloud assembly; it does not compile or run workflows'),
  layer('local', ['asl', 'construct', 'cli'], 'the local engine runs a synthesized app: it reads the assembly, not the construct'),
  layer('construct', ['client', 'local', 'graph', 'cost', 'cli'], 'the construct builds on the DSL, compiler, ASL importer and assembly contract only'),
  {
    files: ['runtime/**/*.ts', 'lib/**/*.ts', 'bench/**/*.ts', 'test/support/**/*.ts'],
    ignores: ['runtime/contract/table.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...TABLE_SYNTAX],
    },
  },
);

/**
 * `no-restricted-imports` for one layer `lib/<name>`: the layers it must not
 * import, and aws-cdk-lib / constructs everywhere but lib/construct. (A later
 * config replaces a rule's options, so each layer states both.)
 */
function layer(name, forbidden, why) {
  const cdk = { group: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'], message: 'only lib/construct imports aws-cdk-lib and constructs' };
  const layers = { regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`, message: why };
  return {
    files: [`lib/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: name === 'construct' ? [layers] : [cdk, layers] }] },
  };
}
