import { describe, expect, it } from 'vitest';
import { useErrors } from '../../src/plugins/use-errors.js';
import { useLimits } from '../../src/plugins/use-limits.js';
import { minimalYoga } from './support.js';

const LIMITS = {
  maxDepth: 5,
  maxCost: 5000,
  maxAliases: 3,
  maxTokens: 200,
  maxDirectives: 5,
  maxBodyBytes: 10_000,
  walkBudget: 100,
  workBudget: 100,
  rowsPerCall: 100,
  feedbackMaxEdges: 10,
};

const fetch = minimalYoga([useErrors(), useLimits(LIMITS, { suggestions: false })]);
const errorsOf = async (query: string) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return ((await response.json()) as { errors?: { message: string; extensions: Record<string, unknown> }[] }).errors;
};

describe('useLimits', () => {
  it('refuses too many aliases and too many tokens with LIMIT_EXCEEDED, not retryable', async () => {
    const aliases = await errorsOf('{ a: ok b: ok c: ok d: ok e: ok }');
    expect(aliases?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', retryable: false });
    const tokens = await errorsOf(`{ ${'ok '.repeat(300)} }`);
    expect(tokens?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', retryable: false });
  });

  it('refuses a document nested deeper than the limit before parsing it', async () => {
    const errors = await errorsOf(`{ ${'ok { '.repeat(100)}ok${' }'.repeat(100)} }`);
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', retryable: false });
  });

  it('hides field suggestions when asked to', async () => {
    const errors = await errorsOf('{ okk }');
    expect(errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(errors?.[0]?.message).not.toMatch(/Did you mean/);
  });

  it('lets a query within every limit run', async () => {
    expect(await errorsOf('{ a: ok b: ok }')).toBeUndefined();
  });
});
