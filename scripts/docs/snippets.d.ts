// Types of scripts/docs/snippets.js, for test/docs/snippets.test.ts.
export interface CodeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly closed: boolean;
  readonly snippet?: { readonly file: string; readonly region?: string };
}
export function documentationFiles(root?: string): string[];
export function snippetText(file: string, region?: string, root?: string): string;
export function codeBlocks(markdown: string): { lines: string[]; blocks: CodeBlock[]; strayMarkers: number[] };
export function processMarkdown(markdown: string, name: string, root?: string): { text: string; problems: string[] };
export function checkDocs(root?: string): string[];
export function writeDocs(root?: string): { changed: string[]; problems: string[] };
