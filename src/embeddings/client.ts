import { EngramError } from '../domain/errors.js';

export interface EmbeddingsSettings {
  /** A base URL (…/v1/embeddings is appended) or the full URL of the endpoint (ending in /embeddings). */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>`; null sends no header (a local Ollama). */
  key: string | null;
  /** Most texts per request. */
  batch: number;
  /** Per request, retries included separately. */
  timeoutMs: number;
  /** Further attempts after a failed request (network error, timeout, 429 or 5xx). */
  retries: number;
}

/** Turns texts into vectors, one per text, in order. */
export interface Embedder {
  /** `retries` overrides ENGRAM_EMBEDDINGS_RETRIES (a write tries once, so it waits one timeout at most). */
  embed(texts: readonly string[], signal?: AbortSignal, retries?: number): Promise<number[][]>;
}

/** The endpoint URL requests go to, as documented in docs/vectors.md. */
export function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/embeddings$/.test(trimmed) ? trimmed : `${trimmed}/v1/embeddings`;
}

const RETRY_PAUSE_MS = 200;

/** Failures worth another attempt: the endpoint was busy or briefly away, not told something wrong. */
const retryableStatus = (status: number) => status === 429 || status >= 500;

class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * An OpenAI-compatible embeddings client (POST {model, input: [texts]} → {data: [{index, embedding}]}),
 * as served by OpenAI, Ollama, llama.cpp, vLLM and LM Studio. Texts go in batches of `batch` per
 * request; each request has its own timeout and up to `retries` further attempts. When the
 * endpoint stays down the error is UNAVAILABLE, naming the URL and the last cause.
 */
export function createEmbeddingsClient(
  settings: EmbeddingsSettings,
  fetchImpl: typeof fetch = globalThis.fetch,
): Embedder {
  const endpoint = embeddingsEndpoint(settings.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.key) headers.authorization = `Bearer ${settings.key}`;

  async function attempt(texts: readonly string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: settings.model, input: texts }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const cause = timeout.aborted ? `no answer within ${settings.timeoutMs} ms` : describe(error);
      throw new AttemptFailed(cause, true);
    }
    if (!response.ok) {
      const body = (await response.text().catch(() => '')).slice(0, 200);
      throw new AttemptFailed(`HTTP ${response.status} ${body}`.trim(), retryableStatus(response.status));
    }
    return vectorsOf(await response.json().catch(() => null), texts.length);
  }

  async function embedBatch(
    texts: readonly string[],
    signal: AbortSignal | undefined,
    retries: number,
  ): Promise<number[][]> {
    let last = '';
    for (let tries = 0; tries <= retries; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * tries));
      try {
        return await attempt(texts, signal);
      } catch (error) {
        if (!(error instanceof AttemptFailed)) throw error;
        last = error.message;
        if (!error.retryable) break;
      }
    }
    throw new EngramError('UNAVAILABLE', `The embeddings endpoint ${endpoint} failed: ${last}`);
  }

  return {
    async embed(texts, signal, retries = settings.retries) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += settings.batch) {
        vectors.push(...(await embedBatch(texts.slice(start, start + settings.batch), signal, retries)));
      }
      return vectors;
    },
  };
}

/** The vectors of an answer, in input order; a malformed answer is a failure not worth retrying. */
function vectorsOf(body: unknown, expected: number): number[][] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new AttemptFailed(`the answer does not hold ${expected} embeddings under "data"`, false);
  }
  const vectors: number[][] = new Array(expected);
  data.forEach((entry: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof entry?.index === 'number' ? entry.index : position;
    const vector = entry?.embedding;
    if (!Array.isArray(vector) || !vector.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new AttemptFailed(`embedding ${index} is not a list of finite numbers`, false);
    }
    vectors[index] = vector;
  });
  return vectors;
}

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ? `${error.message} (${cause})` : error.message;
};
