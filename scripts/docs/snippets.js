#!/usr/bin/env node
// Keeps the code blocks of the documentation equal to real, type-checked files.
//
// In README.md and docs/*.md (not docs/architecture.md, the design page), a line
//   <!-- snippet: docs/snippets/quick-start.ts -->          (the whole file)
//   <!-- snippet: docs/snippets/client.ts#start -->         (the lines between `// #region start` and `// #endregion`)
// must be followed by a fenced code block. `--write` fills every such block from its file;
// `--check` exits 1 and lists each block that differs, each snippet that cannot be read, and
// each TypeScript/JavaScript block that has no marker (code in the docs is never written by hand).
// Region marker lines are left out of the output, and a region's common indentation is removed,
// so a region may sit inside a function (a snippet with `await` in it, say).
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const MARKER = /^<!-- snippet: (\S+?)(?:#([\w-]+))? -->$/;
const FENCE = /^(`{3,})(\S*)/;
const REGION = /^\s*\/\/ #(end)?region\b\s*([\w-]*)/;
const CODE_LANGUAGES = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'jsx', 'mjs', 'cjs']);
const LANGUAGE_OF = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

/** The Markdown files whose code blocks come from snippets, relative to `root`. */
function documentationFiles(root = ROOT) {
  const docs = fs.readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'architecture.md')
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The text a marker stands for: the file, or one region of it, without region lines and dedented. */
function snippetText(file, region, root = ROOT) {
  const full = path.join(root, file);
  if (!fs.existsSync(full)) throw new Error(`${file} does not exist`);
  const lines = fs.readFileSync(full, 'utf8').replace(/\r\n/g, '\n').split('\n');
  let selected = lines;
  if (region !== undefined) {
    const start = lines.findIndex((l) => { const m = REGION.exec(l); return m !== null && !m[1] && m[2] === region; });
    if (start < 0) throw new Error(`${file} has no region '${region}' (a line \`// #region ${region}\`)`);
    let depth = 0;
    let end = -1;
    for (let i = start + 1; i < lines.length && end < 0; i++) {
      const m = REGION.exec(lines[i]);
      if (m === null) continue;
      if (!m[1]) depth++;
      else if (depth === 0) end = i;
      else depth--;
    }
    if (end < 0) throw new Error(`${file}: region '${region}' has no \`// #endregion\``);
    selected = lines.slice(start + 1, end);
  }
  const kept = selected.filter((l) => !REGION.test(l));
  while (kept.length > 0 && kept[kept.length - 1].trim() === '') kept.pop();
  while (kept.length > 0 && kept[0].trim() === '') kept.shift();
  const indents = kept.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)[0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return kept.map((l) => l.slice(cut)).join('\n');
}

/**
 * Every code block of one Markdown text: its marker (if any), where its body
 * lies (line indexes, the fences excluded) and its language.
 */
function codeBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]);
    if (fence === null) continue;
    const close = lines.findIndex((l, j) => j > i && l.startsWith(fence[1]) && l.slice(fence[1].length).trim() === '');
    const end = close < 0 ? lines.length : close;
    const marker = i > 0 ? MARKER.exec(lines[i - 1]) : null;
    blocks.push({
      line: i + 1,
      language: fence[2],
      bodyStart: i + 1,
      bodyEnd: end,
      closed: close >= 0,
      snippet: marker === null ? undefined : { file: marker[1], region: marker[2] },
    });
    i = end;
  }
  return { lines, blocks, strayMarkers: lines.map((l, i) => (MARKER.test(l) && !FENCE.test(lines[i + 1] ?? '') ? i + 1 : 0)).filter((n) => n > 0) };
}

/**
 * Checks one Markdown text (named `name` in messages) and returns it with
 * every snippet block filled in, and the problems found in the text as given.
 */
function processMarkdown(markdown, name, root = ROOT) {
  const { lines, blocks, strayMarkers } = codeBlocks(markdown);
  const problems = strayMarkers.map((line) => `${name}:${line}: a snippet marker must be followed directly by a fenced code block`);
  const out = [...lines];
  // From the last block up, so that earlier line indexes stay valid while blocks change length.
  for (const block of [...blocks].reverse()) {
    const where = `${name}:${block.line}`;
    if (!block.closed) {
      problems.push(`${where}: a code block that is never closed`);
      continue;
    }
    if (block.snippet === undefined) {
      if (CODE_LANGUAGES.has(block.language)) problems.push(`${where}: a ${block.language} block without a snippet marker (put the code in docs/snippets/ and mark the block)`);
      continue;
    }
    const label = block.snippet.file + (block.snippet.region ? `#${block.snippet.region}` : '');
    let expected;
    try {
      expected = snippetText(block.snippet.file, block.snippet.region, root);
    } catch (err) {
      problems.push(`${where}: ${label}: ${err.message}`);
      continue;
    }
    const language = LANGUAGE_OF[path.extname(block.snippet.file)] ?? '';
    if (block.language !== language) problems.push(`${where}: ${label} is ${language || 'plain text'}, the block says '${block.language}'`);
    if (lines.slice(block.bodyStart, block.bodyEnd).join('\n') !== expected) problems.push(`${where}: stale, differs from ${label}`);
    out.splice(block.line - 1, block.bodyEnd - block.bodyStart + 2, '```' + language, ...(expected === '' ? [] : expected.split('\n')), '```');
  }
  return { text: out.join('\n'), problems: problems.reverse() };
}

/** The problems of every documentation file (an empty list when all are current). */
function checkDocs(root = ROOT) {
  return documentationFiles(root).flatMap((file) => processMarkdown(fs.readFileSync(path.join(root, file), 'utf8'), file, root).problems);
}

/** Rewrites every snippet block from its file; returns the files changed and the problems left (a missing snippet, a stray block). */
function writeDocs(root = ROOT) {
  const changed = [];
  const left = [];
  for (const file of documentationFiles(root)) {
    const full = path.join(root, file);
    const before = fs.readFileSync(full, 'utf8');
    const { text } = processMarkdown(before, file, root);
    if (text !== before) {
      fs.writeFileSync(full, text);
      changed.push(file);
    }
    left.push(...processMarkdown(text, file, root).problems);
  }
  return { changed, problems: left };
}

function main(argv) {
  const mode = argv[0];
  if (argv.length !== 1 || (mode !== '--write' && mode !== '--check')) {
    console.error('usage: node scripts/docs/snippets.js --write | --check');
    return 2;
  }
  if (mode === '--write') {
    const { changed, problems } = writeDocs();
    for (const file of changed) console.log(`updated ${file}`);
    for (const p of problems) console.error(p);
    return problems.length === 0 ? 0 : 1;
  }
  const problems = checkDocs();
  for (const p of problems) console.error(p);
  if (problems.length > 0) console.error(`${problems.length} problem(s); \`node scripts/docs/snippets.js --write\` fills the snippet blocks`);
  return problems.length === 0 ? 0 : 1;
}

module.exports = { documentationFiles, snippetText, codeBlocks, processMarkdown, checkDocs, writeDocs };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
