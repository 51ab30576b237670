import { LRUCache } from 'lru-cache';
import type { Embedder } from './client.js';

/** A query's vector, from the endpoint or from what this process kept. */
export type QueryEmbedder = (workspace: string, text: string, signal?: AbortSignal) => Promise<number[] | null>;

/**
 * Recall's query vectors, the most recently used `entries` kept in memory. An agent asks the same
 * question again (a retry, the same recall from the MCP tool and from GraphQL, a follow-up in the
 * same session), and each embedding is a request to the endpoint: one to a hosted model costs
 * 100-300 ms and money, and answers the same vector every time for one model. Kept per workspace,
 * so one tenant cannot learn from a fast answer what another asked. A failed request is not kept.
 * With `entries` 0 every query goes to the endpoint.
 */
export function createQueryEmbedder(embedder: Embedder, entries: number): QueryEmbedder {
  const embed = async (text: string, signal?: AbortSignal): Promise<number[] | null> => {
    const [vector] = await embedder.embed([text], signal);
    return vector ?? null;
  };
  if (entries === 0) return (_workspace, text, signal) => embed(text, signal);
  const kept = new LRUCache<string, number[]>({ max: entries });
  return async (workspace, text, signal) => {
    // A NUL cannot appear in a workspace name, so no two (workspace, text) pairs share a key.
    const key = `${workspace}\u0000${text}`;
    const known = kept.get(key);
    if (known) return known;
    const vector = await embed(text, signal);
    if (vector && vector.length > 0) kept.set(key, vector);
    return vector;
  };
}
