import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useHiddenSuggestions } from '../../src/plugins/use-hidden-suggestions.js';
import { minimalYoga } from './support.js';

const messagesOf = async (fetch: ReturnType<typeof minimalYoga>, query: string, variables?: object) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return ((await response.json()) as { errors: { message: string }[] }).errors.map((error) => error.message);
};

describe('useHiddenSuggestions', () => {
  it('hides the field and type names a validation error would suggest', async () => {
    const fetch = minimalYoga([useHiddenSuggestions()]);
    expect(await messagesOf(fetch, '{ okk }')).toEqual([
      'Cannot query field "okk" on type "Query". [Suggestion hidden]',
    ]);
    expect(await messagesOf(fetch, 'query ($v: Boolen) { ok @include(if: $v) }')).toEqual([
      'Unknown type "Boolen". [Suggestion hidden]',
    ]);
  });

  it('hides the enum value a variable that fails coercion during execution would suggest', async () => {
    // minimalYoga's schema takes no enum argument, and only a variable of an enum or input type
    // fails with a suggestion after validation.
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'enum Color { RED } type Query { pick(color: Color): Int }',
        resolvers: { Query: { pick: () => 1 } },
      }),
      logging: false,
      plugins: [useHiddenSuggestions()],
    });
    const fetch = (path: string, init?: RequestInit) => yoga.fetch(`http://engram.test${path}`, init ?? {});
    expect(await messagesOf(fetch, 'query ($c: Color) { pick(color: $c) }', { c: 'REDD' })).toEqual([
      'Variable "$c" got invalid value "REDD"; Value "REDD" does not exist in "Color" enum. [Suggestion hidden]',
    ]);
  });
});
