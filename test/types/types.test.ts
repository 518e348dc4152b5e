import * as path from 'node:path';
import * as ts from 'typescript';

// Jest runs ts-jest without type checking, so the type-level tests in this
// folder are compiled here with the project's compiler options: an error, or
// an `@ts-expect-error` that no longer expects one (TS2578), fails the suite.
describe('type-level tests (tsc)', () => {
  it('test/types compiles, and every @ts-expect-error is still an error', () => {
    const root = path.join(__dirname, '..', '..');
    const configPath = path.join(root, 'tsconfig.json');
    const config = ts.readConfigFile(configPath, (f) => ts.sys.readFile(f));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const files = ts.sys.readDirectory(__dirname, ['.ts']).filter((f) => !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(0);
    const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || files.includes(d.file.fileName) || d.file.fileName.includes('/lib/definition/'));
    const messages = diagnostics.map((d) => {
      const where = d.file && d.start !== undefined ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(messages).toEqual([]);
  });
});
