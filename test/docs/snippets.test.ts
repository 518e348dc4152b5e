import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkDocs, documentationFiles, processMarkdown, snippetText, writeDocs } from '../../scripts/docs/snippets';

const ROOT = path.join(__dirname, '..', '..');
const README_LIMIT_BYTES = 25_000;

describe('the documentation', () => {
  it('covers the README and every page of docs/ but the design page', () => {
    const files = documentationFiles(ROOT);
    expect(files[0]).toBe('README.md');
    expect(files).toEqual(expect.arrayContaining(['docs/README.md', 'docs/getting-started.md', 'docs/writing-workflows.md', 'docs/deploying-and-operating.md', 'docs/local-development-and-testing.md', 'docs/migrating-from-step-functions.md', 'docs/guarantees.md']));
    expect(files).not.toContain('docs/architecture.md');
  });

  it('has every code block equal to its snippet file, and no TypeScript or JavaScript block without one', () => {
    expect(checkDocs(ROOT)).toEqual([]);
  });

  it(`keeps the README within ${README_LIMIT_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_LIMIT_BYTES);
  });

  it('shows every snippet file somewhere (no snippet is left unused)', () => {
    const shown = new Set(documentationFiles(ROOT).flatMap((f) => [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(/<!-- snippet: (\S+?)(?:#[\w-]+)? -->/g)].map((m) => m[1])));
    const snippets = fs.readdirSync(path.join(ROOT, 'docs', 'snippets'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `docs/snippets/${f.split(path.sep).join('/')}`);
    // Modules that shown snippets import, not shown themselves.
    const helpers = ['docs/snippets/effects/database.ts', 'docs/snippets/effects/payments.ts'];
    expect(snippets.filter((f) => !shown.has(f) && !helpers.includes(f))).toEqual([]);
  });
});

describe('scripts/docs/snippets.js', () => {
  let root: string;
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const snippet = ['import * as path from "node:path";', '', 'export function f(): string {', '  // #region body', '  const a = path.sep;', '  // #region inner', '  return a;', '  // #endregion', '  // #endregion', '}', ''].join('\n');

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-docs-'));
    write('docs/snippets/s.ts', snippet);
    write('docs/architecture.md', '```ts\nnot checked: the design page\n```\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes a region without its marker lines (nested ones too) and without its common indentation', () => {
    expect(snippetText('docs/snippets/s.ts', 'body', root)).toBe('const a = path.sep;\nreturn a;');
    expect(snippetText('docs/snippets/s.ts', 'inner', root)).toBe('return a;');
    expect(snippetText('docs/snippets/s.ts', undefined, root)).not.toContain('#region');
    expect(() => snippetText('docs/snippets/s.ts', 'missing', root)).toThrow("docs/snippets/s.ts has no region 'missing'");
  });

  it('fills a marked block, and then finds it current', () => {
    write('README.md', 'Intro\n\n<!-- snippet: docs/snippets/s.ts#body -->\n```ts\n```\n');
    write('docs/page.md', '```sh\nnpm test\n```\n');
    expect(checkDocs(root)).toEqual(['README.md:4: stale, differs from docs/snippets/s.ts#body']);
    expect(writeDocs(root)).toEqual({ changed: ['README.md'], problems: [] });
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('Intro\n\n<!-- snippet: docs/snippets/s.ts#body -->\n```ts\nconst a = path.sep;\nreturn a;\n```\n');
    expect(checkDocs(root)).toEqual([]);
  });

  it('reports a block edited by hand, a block of code without a marker, a marker without a block and a missing snippet', () => {
    const current = processMarkdown('<!-- snippet: docs/snippets/s.ts#inner -->\n```ts\n```\n', 'page.md', root).text;
    expect(processMarkdown(current, 'page.md', root).problems).toEqual([]);
    const edited = current.replace('return a;', 'return a; // by hand');
    expect(processMarkdown(edited, 'page.md', root).problems).toEqual(['page.md:2: stale, differs from docs/snippets/s.ts#inner']);
    expect(processMarkdown('text\n```js\nconst x = 1;\n```\n', 'page.md', root).problems).toEqual([
      'page.md:2: a js block without a snippet marker (put the code in docs/snippets/ and mark the block)',
    ]);
    expect(processMarkdown('<!-- snippet: docs/snippets/s.ts -->\n\n```ts\n```\n', 'page.md', root).problems).toContain('page.md:1: a snippet marker must be followed directly by a fenced code block');
    expect(processMarkdown('<!-- snippet: docs/snippets/gone.ts -->\n```ts\n```\n', 'page.md', root).problems).toEqual(['page.md:2: docs/snippets/gone.ts: docs/snippets/gone.ts does not exist']);
  });

  it('the real README fails the check once one of its blocks is edited by hand', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const line = readme.split('\n').findIndex((l) => l.startsWith('<!-- snippet:')) + 2;
    const lines = readme.split('\n');
    lines[line] = `${lines[line]} `;
    expect(processMarkdown(lines.join('\n'), 'README.md', ROOT).problems).toEqual([expect.stringMatching(/^README\.md:\d+: stale, differs from docs\/snippets\//)]);
  });
});
