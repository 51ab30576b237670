import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmbeddingBackfill } from '../../../src/embeddings/backfill.js';
import { createEmbeddingsClient } from '../../../src/embeddings/client.js';
import { createQueryEmbedder } from '../../../src/embeddings/query-embeddings.js';
import { createVectorMatcher } from '../../../src/embeddings/vector-matcher.js';
import { createLogger } from '../../../src/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { DEFAULT_WS } from '../support.js';
import { bagOfWords, type EmbeddingServer, startEmbeddingServer, TEST_DIMENSIONS } from './embedding-server.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id title hasEmbedding } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateMemoryInput!) { updateMemory(id: $id, input: $input) { id hasEmbedding } }`;
const HAS = `query ($id: ID!) { memory(id: $id) { hasEmbedding } }`;

let server: EmbeddingServer;
let api: TestApp;
const open = async (withEndpoint: boolean) => {
  api = await createTestApp({
    env: withEndpoint
      ? {
          ENGRAM_EMBEDDINGS_URL: server.url,
          ENGRAM_EMBEDDINGS_MODEL: 'test-model',
          ENGRAM_EMBEDDINGS_KEY: 'sk-vectors',
          ENGRAM_EMBEDDINGS_TIMEOUT_MS: '500',
          ENGRAM_EMBEDDINGS_RETRIES: '0',
        }
      : {},
  });
};
beforeEach(async () => {
  server = await startEmbeddingServer();
});
afterEach(async () => {
  await api?.close();
  await server.stop();
});

const hasEmbedding = async (id: string) => (await api.gql(HAS, { id })).data?.memory.hasEmbedding;

/** The workspace's memories through the port, so the file runs on either store. */
const storedTitles = async () =>
  (await api.store.listMemories(DEFAULT_WS, { afterId: null, limit: 100 })).map((memory) => memory.title);

describe('embeddings on memories', () => {
  describe('sent by the client', () => {
    beforeEach(() => open(false));

    it('stores a client-sent vector and reports hasEmbedding', async () => {
      const created = await api.gql(CREATE, { input: { title: 'with vector', embedding: bagOfWords('with vector') } });
      expect(created.errors).toBeUndefined();
      expect(created.data?.createMemory.hasEmbedding).toBe(true);
      const plain = await api.gql(CREATE, { input: { title: 'no endpoint, no vector' } });
      expect(plain.data?.createMemory.hasEmbedding).toBe(false);
    });

    it('refuses a vector of another length than the workspace, naming the dimension, and writes nothing', async () => {
      await api.gql(CREATE, { input: { title: 'first', embedding: bagOfWords('first') } });
      const before = await storedTitles();
      const refused = await api.gql(CREATE, { input: { title: 'second', embedding: [1, 0, 0] } });
      expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(refused.errors?.[0]?.message).toMatch(`${TEST_DIMENSIONS} dimensions; got 3`);
      expect(await storedTitles()).toEqual(before);
    });

    it('refuses more than 4096 numbers and an empty list before any store work', async () => {
      for (const embedding of [new Array(4097).fill(0.1), []]) {
        const refused = await api.gql(CREATE, { input: { title: 'too long', embedding } });
        expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      }
      expect(await storedTitles()).toEqual([]);
    });

    it('drops the vector when the text changes, and takes a new one sent with the change', async () => {
      const { data } = await api.gql(CREATE, { input: { title: 'old', embedding: bagOfWords('old') } });
      const id = data?.createMemory.id as string;
      expect((await api.gql(UPDATE, { id, input: { tags: ['same text'] } })).data?.updateMemory.hasEmbedding).toBe(
        true,
      );
      expect((await api.gql(UPDATE, { id, input: { title: 'new' } })).data?.updateMemory.hasEmbedding).toBe(false);
      const resent = await api.gql(UPDATE, { id, input: { content: 'newer', embedding: bagOfWords('newer') } });
      expect(resent.data?.updateMemory.hasEmbedding).toBe(true);
    });
  });

  describe('from the endpoint', () => {
    beforeEach(() => open(true));

    it('embeds a new memory through the endpoint with the configured key; a client vector wins', async () => {
      const created = await api.gql(CREATE, { input: { title: 'graph databases', content: 'neo4j and sqlite' } });
      expect(created.data?.createMemory.hasEmbedding).toBe(true);
      expect(server.requests).toEqual([
        {
          url: '/v1/embeddings',
          authorization: 'Bearer sk-vectors',
          inputs: ['graph databases\n\nneo4j and sqlite'],
          model: 'test-model',
        },
      ]);
      await api.gql(CREATE, { input: { title: 'own vector', embedding: bagOfWords('own vector') } });
      expect(server.requests).toHaveLength(1);
    });

    it('tries the endpoint once per write, whatever ENGRAM_EMBEDDINGS_RETRIES, and still answers the write', async () => {
      await api.close();
      api = await createTestApp({
        env: { ENGRAM_EMBEDDINGS_URL: server.url, ENGRAM_EMBEDDINGS_MODEL: 'm', ENGRAM_EMBEDDINGS_RETRIES: '3' },
      });
      server.failNext = 5;
      const created = await api.gql(CREATE, { input: { title: 'busy endpoint' } });
      expect(created.errors).toBeUndefined();
      expect(created.data?.createMemory.hasEmbedding).toBe(false);
      expect(server.requests).toHaveLength(1);
    });

    it('embeds again only when the title or content changes', async () => {
      const { data } = await api.gql(CREATE, { input: { title: 'first title' } });
      const id = data?.createMemory.id as string;
      await api.gql(UPDATE, { id, input: { kind: 'fact', tags: ['x'] } });
      expect(server.requests).toHaveLength(1);
      const renamed = await api.gql(UPDATE, { id, input: { title: 'second title' } });
      expect(renamed.data?.updateMemory.hasEmbedding).toBe(true);
      expect(server.requests.map((request) => request.inputs)).toEqual([['first title'], ['second title']]);
    });

    it('keeps writing while the endpoint is down, and the back-fill embeds the memory once it is back', async () => {
      await server.stop();
      const created = await api.gql(CREATE, { input: { title: 'written while down' } });
      expect(created.errors).toBeUndefined();
      const id = created.data?.createMemory.id as string;
      expect(created.data?.createMemory.hasEmbedding).toBe(false);

      const backfill = createEmbeddingBackfill({
        store: api.store,
        embedder: createEmbeddingsClient({ ...(api.config.embeddings as NonNullable<typeof api.config.embeddings>) }),
        logger: createLogger('silent'),
        intervalMs: 60_000,
        batch: 10,
      });
      expect(await backfill.runOnce()).toBe(0);
      expect(await hasEmbedding(id)).toBe(false);

      await server.start();
      expect(await backfill.runOnce()).toBe(1);
      expect(await hasEmbedding(id)).toBe(true);
      expect(await backfill.runOnce()).toBe(0);
      await backfill.stop();
    });

    it('runs rounds on its own once started, and stops before the store closes', async () => {
      await server.stop();
      const id = (await api.gql(CREATE, { input: { title: 'queued' } })).data?.createMemory.id as string;
      await server.start();
      const backfill = createEmbeddingBackfill({
        store: api.store,
        embedder: createEmbeddingsClient({ ...(api.config.embeddings as NonNullable<typeof api.config.embeddings>) }),
        logger: createLogger('silent'),
        intervalMs: 20,
        batch: 10,
      });
      backfill.start();
      await vi.waitFor(async () => expect(await hasEmbedding(id)).toBe(true), { timeout: 5000, interval: 20 });
      await backfill.stop();
      // The write's own attempt fails (503), so the memory is queued: a loop still running would ask again.
      const seen = server.requests.length;
      server.failNext = 1;
      await api.gql(UPDATE, { id, input: { title: 'changed after stop' } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.requests.length).toBe(seen + 1);
      expect(await hasEmbedding(id)).toBe(false);
    });

    it('back-fills in bounded batches, several texts per request, across workspaces', async () => {
      await server.stop();
      for (let index = 0; index < 5; index++) {
        await api.gql(CREATE, { input: { title: `memory ${index}` } }, { workspace: index % 2 ? 'other' : DEFAULT_WS });
      }
      await server.start();
      const backfill = createEmbeddingBackfill({
        store: api.store,
        embedder: createEmbeddingsClient({ ...(api.config.embeddings as NonNullable<typeof api.config.embeddings>) }),
        logger: createLogger('silent'),
        intervalMs: 60_000,
        batch: 2,
      });
      expect(await backfill.runOnce()).toBe(4);
      expect(server.requests.map((request) => request.inputs.length)).toEqual([2, 2]);
      expect(await backfill.runOnce()).toBe(1);
      expect(await backfill.runOnce()).toBe(0);
      await backfill.stop();
    });

    it('matches a query text to the nearest memories through the endpoint (recall vector signal)', async () => {
      const titles = ['postgres replication lag', 'sqlite write ahead log', 'cooking pasta at home'];
      const ids: string[] = [];
      for (const title of titles) ids.push((await api.gql(CREATE, { input: { title } })).data?.createMemory.id);
      const embedder = createEmbeddingsClient({
        ...(api.config.embeddings as NonNullable<typeof api.config.embeddings>),
      });
      const match = createVectorMatcher(api.store, createQueryEmbedder(embedder, 0));
      const byText = await match(DEFAULT_WS, { text: 'sqlite write ahead log', embedding: null }, 2);
      expect(byText[0]).toEqual({ memoryId: ids[1], similarity: expect.closeTo(1, 5) });
      expect(byText).toHaveLength(2);
      const byVector = await match(DEFAULT_WS, { text: null, embedding: bagOfWords('cooking pasta at home') }, 1);
      expect(byVector.map((entry) => entry.memoryId)).toEqual([ids[2]]);
      await server.stop();
      expect(await match(DEFAULT_WS, { text: 'anything', embedding: null }, 3)).toEqual([]);
      expect(await match('empty-workspace', { text: null, embedding: bagOfWords('x') }, 3)).toEqual([]);
      await expect(match(DEFAULT_WS, { text: null, embedding: [1, 0] }, 3)).rejects.toMatchObject({
        code: 'BAD_USER_INPUT',
        message: `embedding: this workspace's embeddings have ${TEST_DIMENSIONS} dimensions; got 2`,
      });
    });
  });
});
