import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddingsClient, type EmbeddingsSettings, embeddingsEndpoint } from '../../../src/embeddings/client.js';
import { bagOfWords, type EmbeddingServer, startEmbeddingServer } from './embedding-server.js';

let server: EmbeddingServer;
beforeEach(async () => {
  server = await startEmbeddingServer();
});
afterEach(async () => {
  await server.stop();
});

const settings = (overrides: Partial<EmbeddingsSettings> = {}): EmbeddingsSettings => ({
  url: server.url,
  model: 'test-model',
  key: null,
  batch: 3,
  timeoutMs: 2000,
  retries: 0,
  ...overrides,
});

describe('embeddings client against a real HTTP endpoint', () => {
  it('sends the texts in batches of ENGRAM_EMBEDDINGS_BATCH and answers the vectors in input order', async () => {
    const texts = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    const vectors = await createEmbeddingsClient(settings()).embed(texts);
    expect(vectors).toEqual(texts.map(bagOfWords));
    expect(server.requests.map((request) => request.inputs)).toEqual([
      ['one', 'two', 'three'],
      ['four', 'five', 'six'],
      ['seven'],
    ]);
    expect(server.requests.every((request) => request.url === '/v1/embeddings' && request.model === 'test-model')).toBe(
      true,
    );
  });

  it('sends the key as a Bearer token, and no authorization header without one', async () => {
    await createEmbeddingsClient(settings({ key: 'sk-test' })).embed(['a']);
    await createEmbeddingsClient(settings()).embed(['b']);
    expect(server.requests.map((request) => request.authorization)).toEqual(['Bearer sk-test', undefined]);
  });

  it('gives up on a slow endpoint after the timeout, with UNAVAILABLE naming the endpoint', async () => {
    server.delayMs = 1000;
    await expect(createEmbeddingsClient(settings({ timeoutMs: 100 })).embed(['slow'])).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: `The embeddings endpoint ${server.url}/v1/embeddings failed: no answer within 100 ms`,
    });
  });

  it('retries a 503 up to ENGRAM_EMBEDDINGS_RETRIES times', async () => {
    server.failNext = 2;
    await expect(createEmbeddingsClient(settings({ retries: 2 })).embed(['x'])).resolves.toEqual([bagOfWords('x')]);
    expect(server.requests).toHaveLength(3);
    server.failNext = 2;
    await expect(createEmbeddingsClient(settings({ retries: 1 })).embed(['x'])).rejects.toThrow(/HTTP 503 overloaded/);
  });

  it('reports an endpoint that is down as UNAVAILABLE with the connection error', async () => {
    await server.stop();
    await expect(createEmbeddingsClient(settings({ retries: 1 })).embed(['x'])).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/failed: fetch failed \(ECONNREFUSED\)/),
    });
  });

  it('posts to the URL as given when it already ends in /embeddings', () => {
    expect(embeddingsEndpoint('http://localhost:11434')).toBe('http://localhost:11434/v1/embeddings');
    expect(embeddingsEndpoint('http://localhost:11434/')).toBe('http://localhost:11434/v1/embeddings');
    expect(embeddingsEndpoint('https://api.example.com/v1/embeddings')).toBe('https://api.example.com/v1/embeddings');
  });
});
