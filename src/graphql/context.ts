import { DEFAULT_RECALL_SETTINGS, type QueryLimits, type RecallSettings } from '../config.js';
import type { MemoryRecord } from '../domain/types.js';
import type { WeightPolicy } from '../domain/weights.js';
import type { Embedder } from '../embeddings/client.js';
import type { Loaders } from '../loaders/index.js';
import type { Logger } from '../logger.js';
import type { VectorMatcher } from '../services/vector-match.js';
import type { WriteScope } from '../services/writes.js';
import type { GraphStore } from '../store/port.js';
import type { WorkMeter } from '../store/work-budget.js';

/** Per-request context: one workspace, one fresh set of loaders. */
export interface EngramContext {
  workspace: string;
  store: GraphStore;
  loaders: Loaders;
  policy: WeightPolicy;
  limits: QueryLimits;
  /** The request's store work so far, against ENGRAM_WORK_BUDGET. */
  work: WorkMeter;
  strictTypes: boolean;
  /** Role of the caller's API key; undefined when no keys are configured (header mode: full access). */
  role?: 'read' | 'write' | 'admin';
  /** Aborts when the request deadline passes: long work (walks, store calls) stops there. */
  signal?: AbortSignal;
  /** The request id (x-request-id), for logs. */
  requestId?: string;
  /** Nearest memories by embedding, for recall's vector signal; absent when vectors are not configured. */
  vectorMatcher?: VectorMatcher;
  /** Recall's decay, edge budget and record lifetime; DEFAULT_RECALL_SETTINGS when absent. */
  recall?: RecallSettings;
  /** For failures a request survives (a recall record that could not be stored); absent in tests that build a context by hand. */
  logger?: Pick<Logger, 'warn'>;
  /** The embeddings endpoint, when configured: writes embed new text with it (docs/vectors.md). */
  embedder?: Embedder;
}

export function writeScope(ctx: EngramContext): WriteScope {
  return {
    store: ctx.store,
    workspace: ctx.workspace,
    policy: ctx.policy,
    strictTypes: ctx.strictTypes,
    limits: ctx.limits,
    findMemory: (ref: string): Promise<MemoryRecord | null> => ctx.loaders.memory.load(ref),
    embedder: ctx.embedder ?? null,
    associations: (ctx.recall ?? DEFAULT_RECALL_SETTINGS).associations,
  };
}

/** After a write, cached reads of this request are stale: drop them so the response shows the new state. */
export async function afterWrite<T>(ctx: EngramContext, write: Promise<T>): Promise<T> {
  const result = await write;
  ctx.loaders.invalidate();
  return result;
}
