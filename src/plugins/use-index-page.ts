import type { Plugin } from 'graphql-yoga';

export interface IndexLink {
  path: string;
  what: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char);

/**
 * `GET /` answers a tiny page linking what this server serves, so a person who opens the bare
 * address learns where to go instead of meeting an empty 404.
 */
export function useIndexPage(links: readonly IndexLink[]): Plugin {
  const items = links
    .map(({ path, what }) => `<li><a href="${escapeHtml(path)}">${escapeHtml(path)}</a>: ${escapeHtml(what)}</li>`)
    .join('');
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Engram</title><h1>Engram</h1><ul>${items}</ul></html>`;
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== '/' || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : html, {
          status: 200,
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
            'x-content-type-options': 'nosniff',
          },
        }),
      );
    },
  };
}
