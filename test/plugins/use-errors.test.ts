import type { GraphQLError } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { EngramError, unavailable } from '../../src/domain/errors.js';
import { maskError, originalOf, useErrors } from '../../src/plugins/use-errors.js';

/** A bare yoga app with the error plugins and resolvers that fail each way a real one can. */
const yoga = createYoga({
  schema: createSchema({
    typeDefs: `
      type Query { conflict: Int, down: Int, bug: Int, count(n: Int!): Int, pick(color: Color): Int, find(filter: Filter): Int }
      enum Color { RED }
      input Filter { a: Int! }
    `,
    resolvers: {
      Query: {
        conflict: () => {
          throw new EngramError('CONFLICT', 'key taken', { extensions: { argument: 'key' } });
        },
        down: () => {
          throw unavailable(new Error('socket hang up'));
        },
        bug: () => {
          throw new Error('secret detail /var/db');
        },
        count: (_: unknown, { n }: { n: number }) => n,
        pick: () => 1,
        find: () => 1,
      },
    },
  }),
  logging: false,
  maskedErrors: { maskError: maskError({ exposeInternal: false }), isDev: false },
  plugins: [useErrors()],
});

async function errorsOf(body: string, contentType = 'application/json') {
  const response = await yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/graphql-response+json' },
    body,
  });
  const json = (await response.json()) as { errors?: { message: string; extensions: Record<string, unknown> }[] };
  return { status: response.status, errors: json.errors ?? [], retryAfter: response.headers.get('retry-after') };
}
const query = (text: string, variables?: Record<string, unknown>) => JSON.stringify({ query: text, variables });

describe('error contract (useErrors, maskError)', () => {
  it('sends a domain error with its code, retryability and extensions', async () => {
    const { errors } = await errorsOf(query('{ conflict }'));
    expect(errors[0]).toMatchObject({
      message: 'key taken',
      extensions: { code: 'CONFLICT', retryable: false, argument: 'key' },
    });
    expect((await errorsOf(query('{ down }'))).errors[0]?.extensions).toEqual({ code: 'UNAVAILABLE', retryable: true });
  });

  it('tells a client to retry an UNAVAILABLE answer after a second, and only that one', async () => {
    expect((await errorsOf(query('{ down }'))).retryAfter).toBe('1');
    expect((await errorsOf(query('{ conflict }'))).retryAfter).toBeNull();
    expect((await errorsOf(query('{ count(n: 1) }'))).retryAfter).toBeNull();
  });

  it('masks an unexpected error: no message, no stack, INTERNAL_SERVER_ERROR', async () => {
    const { errors } = await errorsOf(query('{ bug }'));
    expect(errors[0]?.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', retryable: false });
    expect(JSON.stringify(errors)).not.toContain('secret');
  });

  // One case per kind of error graphql-js raises before a resolver runs, coded by the phase that raised it.
  it.each([
    ['a syntax error (parse)', query('{ count(n: '), 'GRAPHQL_PARSE_FAILED'],
    ['an unknown field (validation)', query('{ nope }'), 'GRAPHQL_VALIDATION_FAILED'],
    [
      'a variable of a type used where another is expected',
      query('query($n: String) { count(n: $n) }', { n: 'x' }),
      'GRAPHQL_VALIDATION_FAILED',
    ],
    ['a variable of an unknown type', query('query($n: Nope) { count(n: 1) }'), 'GRAPHQL_VALIDATION_FAILED'],
    ['a literal of the wrong type (value rule)', query('{ count(n: "x") }'), 'BAD_USER_INPUT'],
    ['a required argument left out (value rule)', query('{ count }'), 'BAD_USER_INPUT'],
    ['an enum value that does not exist (value rule)', query('{ pick(color: BLUE) }'), 'BAD_USER_INPUT'],
    ['an input field that does not exist (value rule)', query('{ find(filter: { a: 1, b: 2 }) }'), 'BAD_USER_INPUT'],
    [
      'a variable of the wrong type (variables)',
      query('query($n: Int!) { count(n: $n) }', { n: 'x' }),
      'BAD_USER_INPUT',
    ],
    ['a required variable left out (variables)', query('query($n: Int!) { count(n: $n) }'), 'BAD_USER_INPUT'],
    [
      'an input variable missing a field (variables)',
      query('query($f: Filter) { find(filter: $f) }', { f: {} }),
      'BAD_USER_INPUT',
    ],
    [
      'an enum variable that does not exist (variables)',
      query('query($c: Color) { pick(color: $c) }', { c: 'BLUE' }),
      'BAD_USER_INPUT',
    ],
  ])('codes %s', async (_kind, body, code) => {
    const { errors } = await errorsOf(body);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.extensions).toMatchObject({ code, retryable: false });
  });

  it('keeps the original of a masked error for the request log, never on the wire', async () => {
    const masked = maskError({ exposeInternal: false })(new Error('secret detail'), 'Unexpected error.');
    expect(originalOf(masked as GraphQLError)).toMatchObject({ message: 'secret detail' });
    expect(JSON.stringify(masked)).not.toContain('secret');
    const exposed = maskError({ exposeInternal: true })(new Error('secret detail'), 'Unexpected error.');
    expect((exposed as GraphQLError).extensions).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      internalMessage: 'secret detail',
    });
    const domain = maskError({ exposeInternal: false })(unavailable(new Error('down')), 'Unexpected error.');
    expect(originalOf(domain as GraphQLError)).toBeUndefined();
  });

  it("gives yoga's own request errors a code by status and strips the server's internals", async () => {
    const { status, errors } = await errorsOf('{"query": "{ count(n: 1) }"', 'application/json');
    expect(status).toBe(400);
    expect(errors[0]?.extensions).toEqual({ code: 'BAD_REQUEST', retryable: false });
  });
});
