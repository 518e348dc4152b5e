/**
 * The export check at synth: a Task whose handler names no export of its
 * module fails `cdk synth`, naming the workflow, the node, the module and the
 * missing export, and listing the exports found, for ES modules, TypeScript
 * and CommonJS modules alike (otherwise every run fails with
 * Runtime.ImportModuleError). A CommonJS module whose exports cannot be known
 * without running it is not rejected.
 */
import * as path from 'path';
import { Definition, Task } from '../../lib/definition';
import { moduleExports } from '../../lib/construct/bundling';
import { HANDLERS } from './fixtures/workflows';
import { synthWorkflow } from './helpers';

const MODULES = path.join(__dirname, 'fixtures', 'modules');
const RESIZE_CJS = path.join(MODULES, 'resize.js');
const OBJECT_CJS = path.join(MODULES, 'object-exports.js');
const REEXPORT_CJS = path.join(MODULES, 'reexport.js');
const ESM = path.join(MODULES, 'esm.mjs');

const single = (entry: string, handler: string): Definition => Definition.from(new Task('Resize', { entry, handler }));

describe('exports are read statically, never by running the module', () => {
  test.each([
    ['TypeScript', HANDLERS, false, ['add', 'first', 'items', 'second', 'third']],
    ['an ES module', ESM, false, ['resize']],
    ["CommonJS in the README's style (exports.x =)", RESIZE_CJS, true, ['resize']],
    ['CommonJS with module.exports = { ... }', OBJECT_CJS, true, ['crop', 'fit', 'thumbnail']],
    ['CommonJS re-exporting another module: unknown', REEXPORT_CJS, true, undefined],
  ])('%s', (_kind, entry, commonJs, names) => {
    expect(moduleExports(entry)).toEqual({ commonJs, ...(names ? { names } : {}) });
  });
});

describe('a handler that names no export fails synth, naming the workflow, node, module and export, with the exports found', () => {
  test('TypeScript', () => {
    expect(() => synthWorkflow({ definition: single(HANDLERS, 'frist') })).toThrow(
      `Test/Flow: workflow 'Flow', node 'Resize': ${HANDLERS} has no export 'frist' (it exports: add, first, items, second, third); every run of the node would fail to load it`,
    );
  });

  test('an ES module', () => {
    expect(() => synthWorkflow({ definition: single(ESM, 'resizeImage') })).toThrow(
      `Test/Flow: workflow 'Flow', node 'Resize': ${ESM} has no export 'resizeImage' (it exports: resize); every run of the node would fail to load it`,
    );
  });

  test("CommonJS in the README's style", () => {
    expect(() => synthWorkflow({ definition: single(RESIZE_CJS, 'resizeImage') })).toThrow(
      `Test/Flow: workflow 'Flow', node 'Resize': the CommonJS module ${RESIZE_CJS} has no export 'resizeImage' (it exports: resize); every run of the node would fail to load it`,
    );
  });

  test('CommonJS with module.exports = { ... }', () => {
    expect(() => synthWorkflow({ definition: single(OBJECT_CJS, 'resize') })).toThrow(
      `the CommonJS module ${OBJECT_CJS} has no export 'resize' (it exports: crop, fit, thumbnail)`,
    );
  });
});

describe('a handler that names an export synthesizes', () => {
  test.each([
    ['TypeScript', HANDLERS, 'first'],
    ['an ES module', ESM, 'resize'],
    ["CommonJS in the README's style", RESIZE_CJS, 'resize'],
    ['CommonJS with module.exports = { ... }', OBJECT_CJS, 'fit'],
    ['CommonJS whose exports are unknown: not rejected', REEXPORT_CJS, 'anything'],
  ])('%s', (_kind, entry, handler) => {
    const { workflow } = synthWorkflow({ definition: single(entry, handler) });
    expect(Object.keys(workflow.functions)).toEqual(['Resize']);
  });
});
