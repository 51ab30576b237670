import { expect } from 'vitest';
import { type GraphFixture, type SeededGraph, seedGraph } from '../../fixtures/graphs.js';
import type { GraphQLResponse, TestApp } from '../../helpers/app.js';
import { DEFAULT_WS, useCountingApp } from '../support.js';

/**
 * A fresh counting app per test, with the helpers every research-view file uses: seeding a fixture,
 * running an operation that must succeed, and counting the store calls one operation makes.
 */
export function useResearchApp(): {
  api: () => TestApp;
  seed: (fixture: GraphFixture, workspace?: string) => Promise<SeededGraph>;
  ok: <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => Promise<T>;
  callsOf: (query: string, variables?: Record<string, unknown>) => Promise<Record<string, number>>;
} {
  const { api, calls, reset } = useCountingApp();

  const seed = (fixture: GraphFixture, workspace = DEFAULT_WS): Promise<SeededGraph> =>
    seedGraph(api().store, workspace, fixture);

  async function ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const response = await api().gql<T>(query, variables);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data as T;
  }

  async function callsOf(query: string, variables?: Record<string, unknown>): Promise<Record<string, number>> {
    reset();
    await ok(query, variables);
    return Object.fromEntries(calls());
  }

  return { api, seed, ok, callsOf };
}

export function expectCode(response: GraphQLResponse, code: string, message?: RegExp): void {
  expect(response.errors, JSON.stringify(response)).toHaveLength(1);
  expect(response.errors?.[0]?.extensions?.code).toBe(code);
  if (message) expect(response.errors?.[0]?.message).toMatch(message);
}
