import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { keysOf, recallOf, resultOf } from '../recall/support.js';
import { type EmbeddingServer, startEmbeddingServer } from './embedding-server.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id hasEmbedding } }`;
const LINK = `mutation ($input: LinkInput!) { link(input: $input) { id } }`;

let server: EmbeddingServer;
let api: TestApp;
beforeEach(async () => {
  server = await startEmbeddingServer();
  api = await createTestApp({
    env: { ENGRAM_EMBEDDINGS_URL: server.url, ENGRAM_EMBEDDINGS_MODEL: 'test-model', ENGRAM_EMBEDDINGS_RETRIES: '0' },
  });
});
afterEach(async () => {
  await api.close();
  await server.stop();
});

/** A vector the endpoint would never give for these titles: it finds the memory by vector alone. */
const ORTHOGONAL = Array.from({ length: 16 }, (_, index) => (index === 0 ? 1 : 0));

describe('recall with vectors (hybrid ranking through GraphQL)', () => {
  beforeEach(async () => {
    await api.gql(CREATE, { input: { key: 'vec-target', title: 'quarterly revenue forecast', embedding: ORTHOGONAL } });
    await api.gql(CREATE, { input: { key: 'vec-unrelated', title: 'office plants watering schedule' } });
    // Written while the endpoint is down, so it has no vector: only the graph can reach it.
    await server.stop();
    await api.gql(CREATE, { input: { key: 'vec-neighbour', title: 'hiring plan for the sales team' } });
    await server.start();
    await api.gql(LINK, { input: { from: 'vec-target', to: 'vec-neighbour', type: 'RELATES_TO', weight: 0.9 } });
  });

  it('seeds recall from a sent vector when the words match nothing, and spreads activation from the vector hit', async () => {
    const recall = await recallOf(api, `query: "zebra", embedding: [${ORTHOGONAL.join(', ')}], limit: 5`);
    expect(keysOf(recall)[0]).toBe('vec-target');
    const target = resultOf(recall, 'vec-target');
    expect(target).toMatchObject({ lexical: null, seed: true });
    expect(target.vector).toBeCloseTo(1, 5);
    const neighbour = resultOf(recall, 'vec-neighbour');
    expect(neighbour.graph).toBeGreaterThan(0);
    expect(neighbour.path).toHaveLength(1);
  });

  it('embeds the query text through the endpoint and blends the vector signal with the lexical one', async () => {
    const before = server.requests.length;
    const recall = await recallOf(api, 'query: "office plants watering schedule", limit: 5');
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)?.inputs).toEqual(['office plants watering schedule']);
    const unrelated = resultOf(recall, 'vec-unrelated');
    expect(unrelated.lexical).not.toBeNull();
    expect(unrelated.vector).toBeCloseTo(1, 5);
    expect(keysOf(recall)[0]).toBe('vec-unrelated');
  });

  it('ranks on the lexical and graph signals when the endpoint is down', async () => {
    await server.stop();
    const recall = await recallOf(api, 'query: "quarterly revenue", limit: 5');
    expect(resultOf(recall, 'vec-target')).toMatchObject({ vector: null, seed: true });
    expect(resultOf(recall, 'vec-neighbour').graph).toBeGreaterThan(0);
  });

  it('refuses a sent query vector of another length than the workspace', async () => {
    const response = await api.gql('{ recall(query: "revenue", embedding: [1, 0, 0], limit: 5) { id } }');
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toMatch('16 dimensions; got 3');
  });
});

describe("recall's query vectors, kept (ENGRAM_EMBEDDINGS_QUERY_CACHE)", () => {
  const QUESTION = 'query: "office plants watering schedule", limit: 5';
  // The memories' own vectors are asked for with the same text when they are written: counted from after.
  let written = 0;
  const asked = () =>
    server.requests.slice(written).filter((request) => request.inputs[0] === 'office plants watering schedule');

  beforeEach(async () => {
    await api.gql(CREATE, { input: { key: 'plants', title: 'office plants watering schedule' } });
    await api.gql(
      CREATE,
      { input: { key: 'plants', title: 'office plants watering schedule' } },
      { workspace: 'other-team' },
    );
    written = server.requests.length;
  });

  it('embeds a question asked again in the same workspace once, and ranks it the same', async () => {
    const first = await recallOf(api, QUESTION);
    const again = await recallOf(api, QUESTION);
    expect(asked()).toHaveLength(1);
    expect(resultOf(again, 'plants').vector).toBeCloseTo(1, 5);
    expect(again.results.map((result) => [result.memory.key, result.score])).toEqual(
      first.results.map((result) => [result.memory.key, result.score]),
    );
  });

  it('embeds it again for another workspace: one tenant cannot time what another asked', async () => {
    await recallOf(api, QUESTION);
    await recallOf(api, QUESTION, { workspace: 'other-team' });
    expect(asked()).toHaveLength(2);
    await recallOf(api, QUESTION, { workspace: 'other-team' });
    expect(asked()).toHaveLength(2);
  });

  it('keeps no failed embedding: the next recall asks the endpoint again and gets the vector', async () => {
    server.failNext = 1;
    expect(resultOf(await recallOf(api, QUESTION), 'plants').vector).toBeNull();
    expect(resultOf(await recallOf(api, QUESTION), 'plants').vector).toBeCloseTo(1, 5);
    expect(asked()).toHaveLength(2);
  });

  it('with 0 keeps nothing: every recall asks the endpoint', async () => {
    const uncached = await createTestApp({
      env: {
        ENGRAM_EMBEDDINGS_URL: server.url,
        ENGRAM_EMBEDDINGS_MODEL: 'test-model',
        ENGRAM_EMBEDDINGS_QUERY_CACHE: '0',
      },
    });
    try {
      await uncached.gql(CREATE, { input: { key: 'plants', title: 'office plants watering schedule' } });
      written = server.requests.length;
      await recallOf(uncached, QUESTION);
      await recallOf(uncached, QUESTION);
      expect(asked()).toHaveLength(2);
    } finally {
      await uncached.close();
    }
  });
});
