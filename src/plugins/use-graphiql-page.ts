import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

const compressors = {
  // Quality 5: ~4.6x smaller in well under a second; 11 gains 12% more for ~30 s of CPU.
  br: (page: Uint8Array) =>
    promisify(brotliCompress)(page, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: page.length },
    }),
  gzip: (page: Uint8Array) => promisify(gzip)(page),
};

type Encoding = keyof typeof compressors;

/** The best encoding the client accepts (br, then gzip), or null for the page as is. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => (name ?? '').trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/**
 * Serves GraphiQL at the GraphQL endpoint to browsers (GET with Accept: text/html), as yoga's own
 * GraphiQL does, but compressed: the self-contained page is ~9 MB, so it is rendered once and each
 * encoding (brotli, gzip) is computed once, on first use, and the bytes kept for every later request.
 * `render` may load the page's module on first use: every process that never serves the page (the
 * CLI, `engram mcp`, each cluster worker until a browser asks) starts without parsing it.
 */
export function useGraphiQLPage(options: { endpoint: string; render: () => Promise<string> }): Plugin {
  // Kept as plain Uint8Arrays, the body type a Response takes, so no request copies megabytes.
  const encoded = new Map<Encoding | null, Promise<Uint8Array<ArrayBuffer>>>();
  const bytesFor = (encoding: Encoding | null): Promise<Uint8Array<ArrayBuffer>> => {
    let bytes = encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === null
          ? options.render().then((page) => new TextEncoder().encode(page))
          : bytesFor(null)
              .then((page) => compressors[encoding](page))
              .then((compressed) => new Uint8Array(compressed));
      // A failure is retried on the next request rather than cached.
      bytes.catch(() => encoded.delete(encoding));
      encoded.set(encoding, bytes);
    }
    return bytes;
  };

  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || !request.headers.get('accept')?.includes('text/html')) return;
      if (url.pathname !== options.endpoint && url.pathname !== `${options.endpoint}/`) return;
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      const bytes = await bytesFor(encoding);
      endResponse(
        new fetchAPI.Response(bytes, {
          status: 200,
          headers: {
            'content-type': 'text/html; charset=utf-8',
            vary: 'accept-encoding',
            ...(encoding ? { 'content-encoding': encoding } : {}),
          },
        }),
      );
    },
  };
}
