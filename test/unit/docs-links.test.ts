import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README_MAX_BYTES = 12_288;

const documents = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown outside fenced code blocks, with inline code spans blanked so their brackets are not read as links. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

function links(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of prose(markdown)) {
    const text = line.replace(/`[^`]*`/g, '``');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) if (match[1]) targets.push(match[1]);
  }
  return targets;
}

describe('documentation links', () => {
  it('finds the documents and their links (the checker is live)', () => {
    expect(documents).toEqual(expect.arrayContaining(['docs/operations.md', 'docs/configuration.md']));
    expect(links('[a](b.md#c) `[not](a-link)`\n```\n[nor](this)\n```\n[d](#e)')).toEqual(['b.md#c', '#e']);
    expect(anchors('## The live suite (`npm run test:neo4j`)\n## Errors\n## Errors')).toEqual(
      new Set(['the-live-suite-npm-run-testneo4j', 'errors', 'errors-1']),
    );
  });

  it.each(documents)('%s: every relative link names a file in the repo and every #anchor a heading', (document) => {
    const markdown = readFileSync(join(ROOT, document), 'utf8');
    const broken: string[] = [];
    for (const target of links(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), decodeURIComponent(path));
      if (!file.startsWith(ROOT) || !existsSync(file)) {
        broken.push(`${target} (no file ${relative(ROOT, file)})`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md'))
        broken.push(`${target} (anchor into a non-Markdown file)`);
      else if (!anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });

  it('indexes every page of docs/ and bench/README.md from the README', () => {
    const linked = new Set(links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((target) => target.split('#')[0]));
    expect(documents.filter((document) => document !== 'README.md' && !linked.has(document))).toEqual([]);
  });

  it(`keeps README.md a front door: at most ${README_MAX_BYTES} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });
});
