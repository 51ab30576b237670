import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, useGraphiQLPage } from '../../src/plugins/use-graphiql-page.js';
import { minimalYoga } from './support.js';

/** A page big and repetitive enough to show compression, as the real ~9 MB GraphiQL bundle is. */
const PAGE = `<!doctype html><title>GraphiQL</title><script>${'const graphiql = "bundle";\n'.repeat(20_000)}</script>`;

function appWithPage(failures = 0) {
  let renders = 0;
  const fetch = minimalYoga([
    useGraphiQLPage({
      endpoint: '/graphql',
      render: async () => {
        renders += 1;
        if (renders <= failures) throw new Error('the page module did not load');
        return PAGE;
      },
    }),
  ]);
  const page = (acceptEncoding?: string) =>
    fetch('/graphql', {
      headers: { accept: 'text/html', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });
  return { fetch, page, renders: () => renders };
}

describe('useGraphiQLPage', () => {
  it('sends the page brotli-compressed to a client that accepts br, a fraction of its size', async () => {
    const { page } = appWithPage();
    const response = await page('gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('accept-encoding');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeLessThan(PAGE.length / 20);
    expect(brotliDecompressSync(bytes).toString()).toBe(PAGE);
  });

  it('sends gzip to a client that accepts only gzip, and the page as is to one that accepts neither', async () => {
    const { page } = appWithPage();
    const gzipped = await page('gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(PAGE);
    const plain = await page();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(PAGE);
  });

  it('renders and compresses once, however many requests ask', async () => {
    const { page, renders } = appWithPage();
    const [first, ...rest] = await Promise.all(Array.from({ length: 5 }, () => page('br')));
    const bytes = Buffer.from(await first!.arrayBuffer());
    for (const response of rest) expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    await page('gzip');
    await page();
    expect(renders()).toBe(1);
  });

  it('renders again on the next request after a render that failed', async () => {
    const { page, renders } = appWithPage(1);
    await expect(page('br')).rejects.toThrow('the page module did not load');
    const response = await page('br');
    expect(response.status).toBe(200);
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(PAGE);
    expect(renders()).toBe(2);
  });

  it('leaves GraphQL requests and other paths to yoga', async () => {
    const { fetch } = appWithPage();
    const result = await fetch('/graphql?query={ok}', { headers: { accept: 'application/json' } });
    expect(await result.json()).toEqual({ data: { ok: true } });
    expect((await fetch('/other', { headers: { accept: 'text/html' } })).status).toBe(404);
  });
});

describe('chooseEncoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(null)).toBeNull();
  });
});
