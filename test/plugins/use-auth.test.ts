import { describe, expect, it } from 'vitest';
import { parseApiKeyList } from '../../src/auth/api-keys.js';
import { createAuthenticator, useAuth } from '../../src/plugins/use-auth.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { minimalYoga } from './support.js';

const KEYS = 'reader-key-0123456789abcdef=lab:read,admin-key-0123456789abcdef=lab:admin';

function appWithKeys() {
  const authenticate = createAuthenticator({ keys: parseApiKeyList(KEYS), defaultWorkspace: 'default' });
  return minimalYoga([
    useErrors(),
    useAuth({ authenticate, keysConfigured: true, adminPaths: ['/metrics'], keyedPaths: ['/mcp'] }),
  ]);
}

describe('useAuth', () => {
  it('refuses a keyed path without credentials: 401, UNAUTHENTICATED, WWW-Authenticate', async () => {
    const response = await appWithKeys()('/mcp', { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="engram"');
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'Missing credentials: send Authorization: Bearer <API key>',
          extensions: { code: 'UNAUTHENTICATED', retryable: false },
        },
      ],
    });
  });

  it('refuses an admin path to a non-admin key with 403 FORBIDDEN, and lets an admin key through', async () => {
    const fetch = appWithKeys();
    const reader = await fetch('/metrics', { headers: { authorization: 'Bearer reader-key-0123456789abcdef' } });
    expect(reader.status).toBe(403);
    expect(await reader.json()).toMatchObject({
      errors: [{ message: '/metrics needs an admin API key', extensions: { code: 'FORBIDDEN', retryable: false } }],
    });
    const admin = await fetch('/metrics', { headers: { authorization: 'Bearer admin-key-0123456789abcdef' } });
    expect(admin.status).toBe(404);
  });

  it('refuses a header naming another workspace than the key', async () => {
    const response = await appWithKeys()('/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer reader-key-0123456789abcdef', 'x-engram-workspace': 'other' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      errors: [{ message: 'This API key may not use workspace "other"', extensions: { code: 'FORBIDDEN' } }],
    });
  });
});

describe('createAuthenticator', () => {
  it('without keys takes the workspace header, refusing a bad name with BAD_USER_INPUT and 400', () => {
    const authenticate = createAuthenticator({ keys: [], defaultWorkspace: 'default' });
    const request = (workspace?: string) =>
      new Request('http://engram.test/graphql', { headers: workspace ? { 'x-engram-workspace': workspace } : {} });
    expect(authenticate(request('lab'))).toMatchObject({ workspace: 'lab', role: 'admin' });
    expect(authenticate(request())).toMatchObject({ workspace: 'default' });
    try {
      authenticate(request('bad name!'));
      expect.unreachable();
    } catch (error) {
      expect((error as { extensions: unknown }).extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        retryable: false,
        http: { status: 400 },
      });
    }
  });
});
