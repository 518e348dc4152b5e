import { commonJsExports } from '../../lib/construct/commonjs-exports';

describe('commonJsExports', () => {
  test("the README's style: exports.name = ...", () => {
    expect(commonJsExports('exports.resize = async (e) => ({ ...e, resized: true });\nexports.crop = function (e) { return e; };')).toEqual(['crop', 'resize']);
  });

  test('module.exports.name = ..., exports[\'name\'] = ...', () => {
    expect(commonJsExports("module.exports.a = 1;\nexports['b-c'] = 2;\nmodule.exports[\"d\"] = 3;")).toEqual(['a', 'b-c', 'd']);
  });

  test('module.exports = an object literal: shorthand, values, methods, accessors, generators, string keys', () => {
    const src = `
      const helper = (x) => ({ nested: { notAnExport: x } });
      module.exports = {
        a,
        b: helper(1),
        async c(e) { return { d: e }; },
        get e() { return 1; },
        *f() {},
        async *g() {},
        'h': [1, { i: 2 }],
        async: 3,
      };`;
    expect(commonJsExports(src)).toEqual(['a', 'async', 'b', 'c', 'e', 'f', 'g', 'h']);
  });

  test("tsc's CommonJS output: Object.defineProperty(exports, ...) and chained assignments; __esModule is no export", () => {
    const src = [
      '"use strict";',
      'Object.defineProperty(exports, "__esModule", { value: true });',
      'exports.other = exports.handler = void 0;',
      'const handler = async () => 1;',
      'exports.handler = handler;',
      'Object.defineProperty(exports, "lazy", { enumerable: true, get: function () { return 2; } });',
    ].join('\n');
    expect(commonJsExports(src)).toEqual(['handler', 'lazy', 'other']);
  });

  test('comments, strings, templates and regular expressions hide nothing and add nothing', () => {
    const src = [
      '// exports.inLineComment = 1;',
      '/* module.exports = { inBlock } */',
      'const s = "exports.inString = 1" + \'module.exports = {}\';',
      'const t = `exports.inTemplate = ${1 + 1} and ${`nested ${2}`}`;',
      'const r = /exports.inRegExp = [/]/g;',
      'const half = 10 / 2; const third = half / 3;',
      'exports.real = { t, r, third };',
    ].join('\n');
    expect(commonJsExports(src)).toEqual(['real']);
  });

  test('a module that exports nothing', () => {
    expect(commonJsExports('module.exports = {};')).toEqual([]);
  });

  test.each([
    ['re-exported from another module', "module.exports = require('./impl');"],
    ['a function as the module', 'module.exports = async function handler() {};'],
    ['a spread', 'module.exports = { ...base, a };'],
    ['a computed key', "module.exports = { [name]: 1 };"],
    ['exports passed to a helper', '__exportStar(require("./x"), exports);'],
    ['Object.assign', 'Object.assign(module.exports, { a: 1 });'],
    ['a computed assignment', 'exports[name] = 1;'],
    ['the module object passed on', 'register(module);'],
    ['an unterminated string', 'exports.a = "oops;'],
  ])('unknown (undefined) when %s', (_why, src) => {
    expect(commonJsExports(src)).toBeUndefined();
  });
});
