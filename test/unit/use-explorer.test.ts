import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type ExplorerOptions, useExplorer } from '../../src/plugins/use-explorer.js';
import { buildExplorer } from '../../web/build.js';
import { createTestApp } from '../helpers/app.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'engram-explorer-'));
  folders.push(folder);
  return folder;
}

function writePage(root: string): void {
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Engram explorer</title>');
  writeFileSync(join(root, 'app.js'), 'console.log("explorer")');
  writeFileSync(join(root, 'style.css'), 'body{}');
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'notes.unknown'), 'not served');
}

/** A bare yoga app with only the explorer plugin, over a folder the test controls. */
function appWith(options: ExplorerOptions) {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } }),
    logging: false,
    plugins: [useExplorer(options)],
  });
  return (path: string, init: RequestInit = {}) => yoga.fetch(`http://engram.test${path}`, init);
}

describe('useExplorer', () => {
  it('serves the page at /explore and /explore/ as HTML with a content security policy', async () => {
    const root = tempFolder();
    writePage(root);
    const fetch = appWith({ root });
    for (const path of ['/explore', '/explore/', '/explore/index.html']) {
      const response = await fetch(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('Engram explorer');
    }
  });

  it('serves the bundle, stylesheet and icon with their content types', async () => {
    const root = tempFolder();
    writePage(root);
    const fetch = appWith({ root });
    const types = {
      '/explore/app.js': 'text/javascript; charset=utf-8',
      '/explore/style.css': 'text/css; charset=utf-8',
      '/explore/favicon.svg': 'image/svg+xml',
    };
    for (const [path, type] of Object.entries(types)) {
      const response = await fetch(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('answers 404 for missing files, unknown file types and paths that leave the folder', async () => {
    const root = tempFolder();
    writePage(root);
    writeFileSync(join(root, '..', 'secret.js'), 'leak');
    folders.push(join(root, '..', 'secret.js'));
    const fetch = appWith({ root });
    for (const path of [
      '/explore/missing.js',
      '/explore/notes.unknown',
      '/explore/%2e%2e/secret.js',
      '/explore/..%2fsecret.js',
      '/explore/%00.js',
      '/explore/%E0%A4%A.js',
    ]) {
      const response = await fetch(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('leak');
    }
  });

  it('answers HEAD without a body, 304 for a known ETag and 405 for other methods', async () => {
    const root = tempFolder();
    writePage(root);
    const fetch = appWith({ root });
    const head = await fetch('/explore/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const etag = head.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await fetch('/explore/app.js', { headers: { 'if-none-match': etag! } })).status).toBe(304);
    const post = await fetch('/explore', { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves every other path to yoga', async () => {
    const root = tempFolder();
    writePage(root);
    const fetch = appWith({ root });
    const graphql = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ ok }' }),
    });
    expect(await graphql.json()).toEqual({ data: { ok: true } });
    expect((await fetch('/explorer.js')).status).toBe(404);
  });

  it('answers 500 with the command to run when the bundle is missing, and never builds it', async () => {
    const root = tempFolder();
    const response = await appWith({ root })('/explore');
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('run `npm run build:web`');
    expect(existsSync(join(root, 'index.html'))).toBe(false);
  });

  it('serves the bundle web/build.ts builds: the page, its script and its stylesheet', async () => {
    const root = tempFolder();
    await buildExplorer({ outDir: root });
    const fetch = appWith({ root });
    const page = await fetch('/explore');
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const asset of ['app.js', 'style.css']) {
      expect(html).toContain(asset);
      const response = await fetch(`/explore/${asset}`);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });
});

describe('ENGRAM_EXPLORER', () => {
  it('is on in development and off in production unless enabled, like GraphiQL', () => {
    expect(loadConfig({}).explorer).toBe(true);
    expect(loadConfig({ ENGRAM_EXPLORER: 'false' }).explorer).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).explorer).toBe(false);
    expect(loadConfig({ ENGRAM_MODE: 'production', ENGRAM_EXPLORER: 'true' }).explorer).toBe(true);
  });

  it('rejects a value that is not a flag', () => {
    expect(() => loadConfig({ ENGRAM_EXPLORER: 'maybe' })).toThrow(/ENGRAM_EXPLORER=maybe: must be true or false/);
  });

  it('leaves /explore unserved when off', async () => {
    const app = await createTestApp({ env: { ENGRAM_EXPLORER: 'false' } });
    try {
      expect((await app.app.fetch('http://engram.test/explore')).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
