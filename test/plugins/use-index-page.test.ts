import { describe, expect, it } from 'vitest';
import { useIndexPage } from '../../src/plugins/use-index-page.js';
import { minimalYoga } from './support.js';

describe('useIndexPage', () => {
  const fetch = minimalYoga([
    useIndexPage([
      { path: '/graphql', what: 'the GraphQL API' },
      { path: '/health', what: 'liveness <probe>' },
    ]),
  ]);

  it('answers GET / with a page linking every entry, escaped', async () => {
    const response = await fetch('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<a href="/graphql">/graphql</a>');
    expect(html).toContain('<a href="/health">/health</a>: liveness &lt;probe&gt;');
  });

  it('answers HEAD without a body and leaves other methods and paths to yoga', async () => {
    const head = await fetch('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch('/', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch('/nothing')).status).toBe(404);
  });
});
