import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { EngramError, unavailable } from '../../src/domain/errors.js';
import { createLogger } from '../../src/logger.js';
import { maskError, useErrorCodes } from '../../src/plugins/use-error-codes.js';
import { useErrorContract } from '../../src/plugins/use-error-contract.js';

/** A bare yoga app with the error plugins and resolvers that fail each way a real one can. */
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { conflict: Int, down: Int, bug: Int, count(n: Int!): Int }',
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
      },
    },
  }),
  logging: false,
  maskedErrors: { maskError: maskError(createLogger('silent')), isDev: false },
  plugins: [useErrorContract(), useErrorCodes()],
});

async function errorsOf(body: string, contentType = 'application/json') {
  const response = await yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/graphql-response+json' },
    body,
  });
  const json = (await response.json()) as { errors?: { message: string; extensions: Record<string, unknown> }[] };
  return { status: response.status, errors: json.errors ?? [] };
}
const query = (text: string, variables?: Record<string, unknown>) => JSON.stringify({ query: text, variables });

describe('error contract (useErrorCodes, maskError, useErrorContract)', () => {
  it('sends a domain error with its code, retryability and extensions', async () => {
    const { errors } = await errorsOf(query('{ conflict }'));
    expect(errors[0]).toMatchObject({
      message: 'key taken',
      extensions: { code: 'CONFLICT', retryable: false, argument: 'key' },
    });
    expect((await errorsOf(query('{ down }'))).errors[0]?.extensions).toEqual({ code: 'UNAVAILABLE', retryable: true });
  });

  it('masks an unexpected error: no message, no stack, INTERNAL_SERVER_ERROR', async () => {
    const { errors } = await errorsOf(query('{ bug }'));
    expect(errors[0]?.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', retryable: false });
    expect(JSON.stringify(errors)).not.toContain('secret');
  });

  it('codes parse, validation and variable errors', async () => {
    expect((await errorsOf(query('{ count(n: '))).errors[0]?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect((await errorsOf(query('{ nope }'))).errors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const bad = await errorsOf(query('query($n: Int!) { count(n: $n) }', { n: 'x' }));
    expect(bad.errors[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', retryable: false });
  });

  it("gives yoga's own request errors a code by status and strips the server's internals", async () => {
    const { status, errors } = await errorsOf('{"query": "{ count(n: 1) }"', 'application/json');
    expect(status).toBe(400);
    expect(errors[0]?.extensions).toEqual({ code: 'BAD_REQUEST', retryable: false });
  });
});
