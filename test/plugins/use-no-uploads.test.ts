import { describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useNoUploads } from '../../src/plugins/use-no-uploads.js';
import { minimalYoga } from './support.js';

const fetch = minimalYoga([useErrors(), useNoUploads()]);

/** A well-formed GraphQL multipart request, which yoga's own parser (on in minimalYoga) would run. */
function upload() {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query: '{ ok }' }));
  form.set('map', '{}');
  return form;
}

describe('useNoUploads', () => {
  it('refuses a multipart/form-data request with 415 and BAD_REQUEST before it is parsed', async () => {
    const response = await fetch('/graphql', { method: 'POST', body: upload() });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      errors: [
        {
          message:
            'Engram takes no file uploads: multipart/form-data requests are refused. Send the operation as application/json.',
          extensions: { code: 'BAD_REQUEST', retryable: false },
        },
      ],
    });
  });

  it('reads the media type case-insensitively, whatever its parameters', async () => {
    // Without this plugin yoga answers such a request with a bare 415 and no error to read.
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': ' Multipart/Form-Data ; boundary=x' },
      body: '--x--',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('lets an application/json request through', async () => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ ok }' }),
    });
    expect(await response.json()).toEqual({ data: { ok: true } });
  });
});
