import { describe, expect, it } from 'vitest';
import { useBodyLimit } from '../../src/plugins/use-body-limit.js';
import { useErrors } from '../../src/plugins/use-errors.js';
import { minimalYoga } from './support.js';

const fetch = minimalYoga([useErrors(), useBodyLimit(100)]);
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('useBodyLimit', () => {
  it('answers a body over the limit with 413 LIMIT_EXCEEDED naming the variable', async () => {
    const response = await post(JSON.stringify({ query: `{ ok ${' '.repeat(200)} }` }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'Request body too large: it is larger than the server accepts (ENGRAM_MAX_BODY_BYTES).',
          extensions: { code: 'LIMIT_EXCEEDED', retryable: false },
        },
      ],
    });
  });

  it('refuses a declared Content-Length over the limit before reading, and a malformed one with 400', async () => {
    expect((await post('{}', { 'content-length': '5000' })).status).toBe(413);
    const malformed = await post('{}', { 'content-length': '1, 2' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      errors: [{ extensions: { code: 'BAD_REQUEST', retryable: false } }],
    });
  });

  it('lets a body within the limit through', async () => {
    expect(await (await post(JSON.stringify({ query: '{ ok }' }))).json()).toEqual({ data: { ok: true } });
  });
});
