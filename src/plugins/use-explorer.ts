import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { packagePath } from '../package-path.js';

/** Where the explorer page is served. */
export const EXPLORER_PATH = '/explore';

const DEFAULT_ROOT = packagePath('web/dist');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The page talks only to this server and runs no inline script; Cytoscape sets inline styles on its container. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface ExplorerOptions {
  /** Folder holding the built page (index.html, app.js, style.css). Default: web/dist. */
  root?: string;
  logger?: Logger;
}

const NOT_BUILT =
  'The explorer page is not built: run `npm run build:web` (it needs the dev dependencies), then reload.';

/**
 * Serves the graph explorer (web/) at /explore: static files from the prebuilt folder (web/dist,
 * written by `npm run build:web`, which `npm start` runs first) with their content types. Server
 * code never builds: when the bundle is missing, /explore answers 500 with the command to run.
 */
export function useExplorer(options: ExplorerOptions = {}): Plugin {
  const root = resolve(options.root ?? DEFAULT_ROOT);
  const isBuilt = () =>
    stat(join(root, 'index.html')).then(
      (info) => info.isFile(),
      () => false,
    );

  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      const { pathname } = url;
      if (pathname !== EXPLORER_PATH && !pathname.startsWith(`${EXPLORER_PATH}/`)) return;
      const respond = (
        body: string | Uint8Array<ArrayBuffer> | null,
        status: number,
        headers: Record<string, string>,
      ) => endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : body, { status, headers }));

      if (request.method !== 'GET' && request.method !== 'HEAD') {
        respond('Method not allowed', 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      try {
        const file = resolveFile(root, pathname.slice(EXPLORER_PATH.length));
        const type = file ? CONTENT_TYPES[extname(file)] : undefined;
        if (!file || !type) {
          respond('Not found', 404, { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        if (!(await isBuilt())) {
          respond(NOT_BUILT, 500, { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        const info = await stat(file).catch(() => null);
        if (!info?.isFile()) {
          respond('Not found', 404, { 'content-type': 'text/plain; charset=utf-8' });
          return;
        }
        const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
        const headers: Record<string, string> = {
          'content-type': type,
          // Revalidate every time: cheap with the ETag, and a rebuilt page is picked up at once.
          'cache-control': 'no-cache',
          etag,
          ...(type.startsWith('text/html') ? PAGE_HEADERS : { 'x-content-type-options': 'nosniff' }),
        };
        if (request.headers.get('if-none-match') === etag) {
          respond(null, 304, headers);
          return;
        }
        respond(new Uint8Array(await readFile(file)), 200, headers);
      } catch (error) {
        options.logger?.error({ err: error }, 'explorer: failed to serve a file');
        respond('Internal error', 500, { 'content-type': 'text/plain; charset=utf-8' });
      }
    },
  };
}

/** The file under `root` a request path names ('' and '/' are index.html); null when it leaves `root` or is malformed. */
function resolveFile(root: string, rest: string): string | null {
  let relative: string;
  try {
    relative = decodeURIComponent(rest === '' || rest === '/' ? '/index.html' : rest);
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const file = resolve(root, `.${relative}`);
  return file.startsWith(`${root}${sep}`) ? file : null;
}
