import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Attribute value tags of DynamoDB's JSON (`{ S: "..." }`, `{ N: "1" }`, ...). */
const ATTRIBUTE_TAG = '/^(S|N|B|SS|NS|BS|M|L|NULL|BOOL)$/';
const KEY_PREFIX = '/(^|[^\\w])(ckpt|run|fanin|hist)#/';
const EXPRESSION = '/\\b(attribute_(not_)?exists|if_not_exists)\\(|^(SET|ADD|REMOVE) [#\\w]/';
const TABLE_LAYOUT = 'The table layout is defined once, in runtime/contract/table/: use its key builders, encoders and decoders (docs/architecture.md "Table").';
/**
 * Ways to name the table's items and attributes outside runtime/contract/table/: key
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

/** The folders of runtime/, lowest first (docs/architecture.md "Layers"). */
const RUNTIME_FOLDERS = ['contract', 'language', 'ports', 'aws', 'records', 'states', 'step', 'effects', 'entry', 'callbacks', 'deployments', 'control'];
const CDK_ONLY_IN_CONSTRUCT = { group: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'], message: 'only lib/construct imports aws-cdk-lib and constructs' };
const RUNTIME_DOOR = {
  regex: '^(\\.\\./)+runtime/(?!(contract|language)(/|$))',
  message: 'lib/ imports the runtime only through runtime/contract (IR, table layout, errors, names, tokens) and runtime/language (paths, intrinsics, conditions)',
};

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
  // Folders of runtime/ (docs/architecture.md, "Layers"), lowest first: each imports only the folders before it.
  ...RUNTIME_FOLDERS.map((folder, i) => runtimeFolder(folder, RUNTIME_FOLDERS.slice(i + 1))),
  // lib/ reads the runtime through one door: its contract and the data language the compiler shares.
  { files: ['lib/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [CDK_ONLY_IN_CONSTRUCT, RUNTIME_DOOR] }] } },
  // Layers of lib/ (docs/architecture.md, "Layers"): each imports only the layers below it.
  layer('definition', ['runs', 'compiler', 'asl', 'construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'the DSL is the lowest layer of lib/: it imports only runtime/'),
  layer('compiler', ['runs', 'asl', 'construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'the compiler imports only the DSL and runtime/ (the ASL importer builds on it)'),
  layer('asl', ['runs', 'construct', 'assembly', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'the ASL importer builds on the DSL and the compiler only'),
  layer('assembly', ['runs', 'definition', 'compiler', 'asl', 'construct', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'the cloud assembly reader reads JSON: it imports only runtime/'),
  layer('runs', ['definition', 'compiler', 'asl', 'construct', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'reading runs from the table: the one module the client, the local engine and the fault tooling read runs through; it imports only the runtime contract'),
  layer('client', ['definition', 'compiler', 'asl', 'construct', 'local', 'cost', 'cli', 'testing'], 'the client reads tables and the cloud assembly; it does not compile or run workflows'),
  layer('local', ['asl', 'construct', 'client', 'cli', 'testing'], 'the local engine runs a synthesized app: it reads the assembly, not the construct, and runs through lib/runs, not the client; the fault tooling (lib/testing) builds on it, and the engine holds only the seam its plans plug into'),
  layer('testing', ['asl', 'construct', 'client', 'cli'], 'the fault tooling builds on the local engine, lib/runs and runtime/: it neither builds apps nor runs the CLI, and reads runs as the client does, through lib/runs'),
  layer('construct', ['runs', 'client', 'local', 'graph', 'cost', 'cli', 'testing'], 'the construct builds on the DSL, compiler, ASL importer and assembly contract only'),
  {
    files: ['runtime/**/*.ts', 'lib/**/*.ts', 'bench/**/*.ts', 'test/support/**/*.ts'],
    ignores: ['runtime/contract/table/**'],
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
  const layers = { regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`, message: why };
  return {
    files: [`lib/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: name === 'construct' ? [layers, RUNTIME_DOOR] : [CDK_ONLY_IN_CONSTRUCT, layers, RUNTIME_DOOR] }] },
  };
}

/** `no-restricted-imports` for one folder `runtime/<folder>`: the folders above it, lib/ and the CDK. */
function runtimeFolder(folder, above) {
  const patterns = [{ regex: '(^|/)lib(/|$)', message: 'runtime/ never imports lib/: it ships in every function' }, { group: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'], message: 'runtime/ ships in every function: no CDK' }];
  if (above.length > 0) patterns.push({ regex: `^(\\.\\./)+(${above.join('|')})(/|$)`, message: `runtime/${folder} is below ${above.join(', ')}: it imports only the folders before it (docs/architecture.md "Layers")` });
  return { files: [`runtime/${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}
