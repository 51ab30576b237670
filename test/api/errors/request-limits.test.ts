import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { createTestApp } from '../../helpers/app.js';
import { expectError, seed, useTestApp } from '../support.js';

const api = useTestApp();

describe('request errors', () => {
  it('answers a syntax error with GRAPHQL_PARSE_FAILED', async () => {
    expectError(await api().gql('{ memory(id: "a" { id }'), 'GRAPHQL_PARSE_FAILED', /^Syntax Error/);
  });

  it('answers an unknown field with GRAPHQL_VALIDATION_FAILED', async () => {
    expectError(
      await api().gql('{ memory(id: "a") { nope } }'),
      'GRAPHQL_VALIDATION_FAILED',
      /Cannot query field "nope" on type "Memory"/,
    );
  });

  it('refuses a mutation sent with GET', async () => {
    const query = encodeURIComponent('mutation { createMemory(input: { title: "t" }) { id } }');
    const response = await api().app.fetch(`http://engram.test/graphql?query=${query}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(405);
    expect((await api().gql('{ searchMemories(query: "t") { id } }')).data?.searchMemories).toEqual([]);
  });
});

describe('LIMIT_EXCEEDED', () => {
  /** neighbors(limit: 2) { memory { ... } } nested `levels` times under one memory: deep, but 2 wide. */
  const nested = (levels: number, leaf = 'title'): string =>
    levels === 0 ? leaf : `neighbors(limit: 2) { memory { ${nested(levels - 1, leaf)} } }`;

  it('accepts a query within the default limits', async () => {
    await seed(api(), chain);
    const { data, errors } = await api().gql(`{ memory(key: "chain-a") { ${nested(5)} } }`);
    expect(errors).toBeUndefined();
    expect(data?.memory.neighbors[0].memory.neighbors).toHaveLength(2);
  });

  it('rejects a query nested deeper than 12', async () => {
    expectError(
      await api().gql(`{ memory(key: "chain-a") { ${nested(7)} } }`),
      'LIMIT_EXCEEDED',
      /depth limit of 12 exceeded/,
    );
  });

  it('counts depth through fragments, so spreading them does not hide nesting', async () => {
    const fragments = Array.from({ length: 7 }, (_, index) =>
      index === 6
        ? `fragment F${index} on Memory { title }`
        : `fragment F${index} on Memory { neighbors { memory { ...F${index + 1} } } }`,
    ).join('\n');
    const response = await api().gql(`query { memory(key: "chain-a") { ...F0 } }\n${fragments}`);
    expectError(response, 'LIMIT_EXCEEDED', /depth limit of 12 exceeded/);
  });

  it('rejects a query costing more than 5000', async () => {
    /** Every memory level asks for both neighbors and traverse, doubling the breadth at each level. */
    const branching = (levels: number): string =>
      levels === 0
        ? 'id key title content kind weight createdAt updatedAt'
        : `neighbors { memory { ${branching(levels - 1)} } } traverse { memory { ${branching(levels - 1)} } }`;
    expectError(
      await api().gql(`{ memory(key: "chain-a") { ${branching(5)} } }`),
      'LIMIT_EXCEEDED',
      /Query cost \d+ is over the limit of 5000/,
    );
  });

  it('counts cost through fragments', async () => {
    const app = api();
    const leaf = 'fragment F5 on Memory { id key title content kind weight createdAt updatedAt }';
    const levels = Array.from(
      { length: 5 },
      (_, index) =>
        `fragment F${index} on Memory { neighbors { memory { ...F${index + 1} } } traverse { memory { ...F${index + 1} } } }`,
    );
    expectError(
      await app.gql(`{ memory(key: "chain-a") { ...F0 } }\n${[...levels, leaf].join('\n')}`),
      'LIMIT_EXCEEDED',
      /Query cost \d+ is over the limit of 5000/,
    );
  });

  it('accepts 15 aliases and rejects 16', async () => {
    const aliases = (count: number) =>
      `{ ${Array.from({ length: count }, (_, index) => `a${index}: relationTypes { name }`).join(' ')} }`;
    expect((await api().gql(aliases(15))).errors).toBeUndefined();
    expectError(await api().gql(aliases(16)), 'LIMIT_EXCEEDED', /Aliases limit of 15 exceeded/);
  });

  it('rejects a document of more than 2000 tokens', async () => {
    expectError(
      await api().gql(`{ relationTypes { ${'name '.repeat(2000)} } }`),
      'LIMIT_EXCEEDED',
      /Token limit of 2000 exceeded/,
    );
  });

  it('rejects a body over the size limit with HTTP 413', async () => {
    const response = await api().gql('query($big: String) { relationTypes { name } }', { big: 'x'.repeat(300_000) });
    expect(response.status).toBe(413);
    expectError(response, 'LIMIT_EXCEEDED', /too large/);
  });

  it('rejects a body over the size limit declared in content-length with HTTP 413', async () => {
    const body = JSON.stringify({ query: '{ relationTypes { name } }', variables: { big: 'x'.repeat(300_000) } });
    const response = await api().app.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'LIMIT_EXCEEDED',
    );
  });
});

describe('configured limits', () => {
  it('uses the limits set in the environment', async () => {
    const small = await createTestApp({
      env: { ENGRAM_MAX_DEPTH: '3', ENGRAM_MAX_ALIASES: '1', ENGRAM_MAX_BODY_BYTES: '200' },
    });
    try {
      expectError(
        await small.gql('{ memory(key: "a") { neighbors { memory { title } } } }'),
        'LIMIT_EXCEEDED',
        /depth limit of 3/,
      );
      expectError(
        await small.gql('{ a: relationTypes { name } b: relationTypes { name } }'),
        'LIMIT_EXCEEDED',
        /Aliases limit of 1/,
      );
      expect((await small.gql('query($pad: String) { relationTypes { name } }', { pad: 'x'.repeat(200) })).status).toBe(
        413,
      );
    } finally {
      await small.close();
    }
  });
});
