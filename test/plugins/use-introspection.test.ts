import { describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useIntrospection } from '../../src/plugins/use-introspection.js';
import { minimalYoga } from './support.js';

type Body = { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };

async function ask(enabled: boolean, query: string): Promise<Body> {
  const response = await minimalYoga([useErrors(), useIntrospection({ enabled })])('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as Body;
}

describe('useIntrospection', () => {
  it('refuses __schema and __type with GRAPHQL_VALIDATION_FAILED when off, and still answers __typename', async () => {
    for (const [field, query] of [
      ['__schema', '{ __schema { queryType { name } } }'],
      ['__type', '{ __type(name: "Query") { name } }'],
    ] as const) {
      const { data, errors = [] } = await ask(false, query);
      expect(data, field).toBeUndefined();
      expect(errors[0]?.message).toBe(
        `GraphQL introspection has been disabled, but the requested query contained the field "${field}".`,
      );
      expect(new Set(errors.map((error) => error.extensions.code))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
    }
    expect(await ask(false, '{ __typename ok }')).toEqual({ data: { __typename: 'Query', ok: true } });
  });

  it('answers introspection when on', async () => {
    expect(await ask(true, '{ __schema { queryType { name } } }')).toEqual({
      data: { __schema: { queryType: { name: 'Query' } } },
    });
  });
});
