import { describe, expect, it } from 'vitest';
import { useCsrfPrevention } from '../../src/plugins/use-csrf.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { minimalYoga } from './support.js';

const fetch = minimalYoga([
  useErrors(),
  useCsrfPrevention({ requestHeaders: ['x-engram-workspace', 'authorization'], maxTokens: 1000 }),
]);
const body = JSON.stringify({ query: '{ ok }' });

describe('useCsrfPrevention', () => {
  it('refuses a simple (non-preflighted) request with 403, FORBIDDEN and what to send instead', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await fetch('/graphql', { method: 'POST', headers: { 'content-type': contentType }, body });
      expect(response.status, contentType).toBe(403);
      const json = (await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(json.errors[0]?.message).toBe(
        'Request refused by CSRF prevention: send Content-Type: application/json, or one of the headers x-engram-workspace, authorization.',
      );
      expect(json.errors[0]?.extensions).toEqual({ code: 'FORBIDDEN', retryable: false, reason: 'CSRF_PREVENTION' });
    }
    const plainGet = await fetch('/graphql?query={ok}', { headers: { accept: 'application/json' } });
    expect(plainGet.status).toBe(403);
  });

  it('lets JSON posts and requests with one of the headers through', async () => {
    const json = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await json.json()).toEqual({ data: { ok: true } });
    const get = await fetch('/graphql?query={ok}', {
      headers: { accept: 'application/json', 'x-engram-workspace': 'default' },
    });
    expect(await get.json()).toEqual({ data: { ok: true } });
    const form = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer x' },
      body,
    });
    expect(form.status).not.toBe(403);
  });

  it("leaves a mutation over GET to yoga's 405", async () => {
    const response = await fetch(`/graphql?query=${encodeURIComponent('mutation { touch }')}`, {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(405);
  });
});
