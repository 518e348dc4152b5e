/**
 * The declarations the package ships keep the API the README and the docs
 * use. The build strips every member tagged `@internal` (tsconfig.build.json
 * `stripInternal`), and a tag in the wrong doc comment once took
 * `Definition.from` out of the .d.ts: JavaScript still worked, TypeScript
 * users had no `from`. The declarations are emitted in memory, as the build
 * emits them, then read back with a type checker.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');

/** The package's entries (package.json `exports`), as sources. */
const ENTRIES = { 'unum-cdk': 'lib/index.ts', 'unum-cdk/client': 'lib/client/index.ts', 'unum-cdk/local': 'lib/local/index.ts' } as const;

/** Exported name -> the members (static and instance) the README and docs call on it; [] for a function or type. */
const USED: Record<keyof typeof ENTRIES, Record<string, readonly string[]>> = {
  'unum-cdk': {
    Definition: ['from'],
    UnumWorkflow: ['fromAsl', 'compiled', 'functions'],
    Task: ['next', 'addRetry', 'addCatch'],
    Choice: ['when', 'otherwise', 'afterwards'],
    Condition: ['stringEquals', 'numberGreaterThan', 'isPresent', 'and', 'not'],
    Chain: ['start', 'sequence', 'next'],
    Map: ['itemProcessor', 'next'],
    Parallel: ['branch', 'next'],
    Pass: ['next'],
    Fold: ['next'],
    Wait: ['next'],
    WaitTime: ['duration', 'timestamp'],
    Succeed: [],
    Fail: [],
    fromAsl: [],
    compileWorkflow: [],
  },
  'unum-cdk/client': { UnumClient: ['fromCloudAssembly', 'start', 'result'] },
  'unum-cdk/local': { LocalEngine: ['fromCloudAssembly', 'environment', 'workflows', 'workflow', 'lambdaEndpoint', 'deadLetterQueueUrl', 'stop'], startLocalEngine: [] },
};

/**
 * The .d.ts file of every source the build compiles (path -> text), emitted
 * one file at a time (`transpileDeclaration`: no type check, a few seconds
 * instead of half a minute). Stripping `@internal` works on the doc comments
 * alone, so what it leaves is what the build leaves; types the emitter would
 * have to infer may be missing, which does not change which members exist.
 */
function emitDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.build.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.build.json could not be read');
  expect(config.options.stripInternal).toBe(true);
  // The build's own options also name output folders and maps, which a one-file emit cannot take.
  const compilerOptions: ts.CompilerOptions = { stripInternal: config.options.stripInternal, module: config.options.module, target: config.options.target };
  const out = new Map<string, string>();
  // A .d.ts among the sources declares a module for the compiler only; the build emits nothing for it.
  for (const file of config.fileNames.filter((f) => !f.endsWith('.d.ts'))) {
    const { outputText } = ts.transpileDeclaration(fs.readFileSync(file, 'utf8'), { fileName: file, compilerOptions });
    out.set(dtsOf(path.relative(ROOT, file)), outputText);
  }
  return out;
}

const dtsOf = (source: string): string => path.join(ROOT, 'dist', source.replace(/\.ts$/, '.d.ts'));

/** `dir` and every folder above it. */
function ancestors(dir: string): string[] {
  const parent = path.dirname(dir);
  return parent === dir ? [dir] : [dir, ...ancestors(parent)];
}

/**
 * A checker over the emitted declarations alone: imports of other packages
 * stay unresolved (their types are not what is checked, and loading
 * aws-cdk-lib's declarations would take most of the test's time).
 */
function declarationChecker(dts: Map<string, string>): { checker: ts.TypeChecker; entry: (source: string) => ts.SourceFile } {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [], noEmit: true };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (f) => dts.get(path.resolve(f)) ?? read(f);
  host.fileExists = (f) => dts.has(path.resolve(f)) || (!f.includes(`${path.sep}node_modules${path.sep}`) && exists(f));
  // Module resolution looks for a folder before the files in it: the emitted folders exist only in memory.
  const folders = new Set([...dts.keys()].flatMap((f) => ancestors(path.dirname(f))));
  const isFolder = host.directoryExists?.bind(host) ?? ts.sys.directoryExists;
  host.directoryExists = (d) => folders.has(path.resolve(d)) || isFolder(d);
  const program = ts.createProgram(Object.values(ENTRIES).map(dtsOf), options, host);
  return {
    checker: program.getTypeChecker(),
    entry: (source) => {
      const file = program.getSourceFile(dtsOf(source));
      if (!file) throw new Error(`no declarations emitted for ${source} (have ${[...dts.keys()].length} files)`);
      return file;
    },
  };
}

/** Names of the static and the instance members of an exported class (or of an exported value's type). */
function membersOf(checker: ts.TypeChecker, symbol: ts.Symbol): Set<string> {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const names = new Set(checker.getPropertiesOfType(checker.getTypeOfSymbol(target)).map((p) => p.name));
  if (target.flags & ts.SymbolFlags.Class) for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target))) names.add(p.name);
  return names;
}

describe('the shipped declarations (stripInternal) keep the documented API', () => {
  const dts = emitDeclarations();
  const { checker, entry } = declarationChecker(dts);
  // Nothing below would notice a file it could not find: every entry must be there.
  test('declarations were emitted for every entry', () => {
    for (const source of Object.values(ENTRIES)) expect(dts.has(dtsOf(source))).toBe(true);
  });

  test.each(Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])('%s', (name) => {
    const moduleSymbol = checker.getSymbolAtLocation(entry(ENTRIES[name]));
    const exports = new Map(checker.getExportsOfModule(moduleSymbol as ts.Symbol).map((s) => [s.name, s]));
    const missing: string[] = [];
    for (const [exported, members] of Object.entries(USED[name])) {
      const symbol = exports.get(exported);
      if (!symbol) {
        missing.push(exported);
        continue;
      }
      const present = membersOf(checker, symbol);
      for (const m of members) if (!present.has(m)) missing.push(`${exported}.${m}`);
    }
    expect(missing).toEqual([]);
  });

  test('the importer\'s own Definition.fromDocument is stripped, and Definition.from takes only the chain', () => {
    const text = [...dts].find(([f]) => f.endsWith(path.join('lib', 'definition', 'definition.d.ts')))?.[1] ?? '';
    expect(text).toMatch(/static from<I, O>\(chainable: IChainable<I, O>\): Definition<I, O>;/);
    expect(text).not.toContain('fromDocument');
    expect(text).not.toContain('@internal');
  });
});
