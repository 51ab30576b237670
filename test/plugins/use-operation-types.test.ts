import { describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useOperationTypes } from '../../src/plugins/use-operation-types.js';
import { minimalYoga } from './support.js';

const fetch = minimalYoga([useErrors(), useOperationTypes()]);
const post = (query: string) =>
  fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });

describe('useOperationTypes', () => {
  it('fails a subscription at validation, a client error, instead of masking it as an internal one', async () => {
    const response = await post('subscription { ok }');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'Engram does not support subscription operations: its schema has queries and mutations only.',
          locations: [{ line: 1, column: 1 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', retryable: false },
        },
      ],
    });
  });

  it('lets queries and mutations through', async () => {
    expect(await (await post('{ ok }')).json()).toEqual({ data: { ok: true } });
    expect(await (await post('mutation { touch }')).json()).toEqual({ data: { touch: true } });
  });
});
