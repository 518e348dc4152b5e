import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Attribute value tags of DynamoDB's JSON (`{ S: "..." }`, `{ N: "1" }`, ...). */
const ATTRIBUTE_TAG = '/^(S|N|B|SS|NS|BS|M|L|NULL|BOOL)$/';
const KEY_PREFIX = '/(^|[^\\w])(ckpt|run|fanin|hist)#/';
const EXPRESSION = '/\\b(attribute_(not_)?exists|if_not_exists)\\(|^(SET|ADD|REMOVE) [#\\w]/';
const TABLE_LAYOUT = 'The table layout is defined once, in runtime/table.ts: use its key builders, encoders and decoders (docs/architecture.md "Table").';
/**
 * Ways to name the table's items and attributes outside runtime/table.ts: key
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
  {
    files: ['runtime/**/*.ts', 'lib/**/*.ts', 'bench/**/*.ts', 'test/support/**/*.ts'],
    ignores: ['runtime/table.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...TABLE_SYNTAX],
    },
  },
  {
    files: ['lib/definition/**/*.ts', 'lib/compiler/**/*.ts', 'lib/client/**/*.ts', 'lib/local/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'] }],
    },
  },
);
