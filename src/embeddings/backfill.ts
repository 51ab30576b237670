import type { Logger } from '../logger.js';
import type { GraphStore } from '../store/port.js';
import type { Embedder } from './client.js';
import { embeddingText } from './text.js';

export interface BackfillOptions {
  store: GraphStore;
  embedder: Embedder;
  logger: Logger;
  /** Pause between rounds. */
  intervalMs: number;
  /** Most memories embedded per workspace per round (one store read, one or a few endpoint calls, one store write). */
  batch: number;
  /** Most workspaces visited per round. */
  workspacesPerRound?: number;
}

export interface EmbeddingBackfill {
  /** Runs a round now and then one every intervalMs, until stop(). */
  start(): void;
  /** Stops the rounds and waits for the one in progress (its endpoint call is aborted). */
  stop(): Promise<void>;
  /** One round: how many vectors it stored. Rejects only when the store fails. */
  runOnce(): Promise<number>;
}

const DEFAULT_WORKSPACES_PER_ROUND = 16;

/**
 * One batch of a workspace's queue: at most `batch` memories without a current vector, embedded in
 * one or a few endpoint calls and stored if their text is still the one embedded. How many it stored.
 */
export async function embedQueued(
  store: GraphStore,
  embedder: Embedder,
  workspace: string,
  batch: number,
  signal?: AbortSignal,
): Promise<number> {
  const memories = await store.memoriesNeedingEmbedding(workspace, batch);
  if (memories.length === 0) return 0;
  const vectors = await embedder.embed(memories.map(embeddingText), signal);
  return store.setEmbeddings(
    workspace,
    memories.map((memory, index) => ({
      memoryId: memory.id,
      vector: vectors[index] as number[],
      ifText: { title: memory.title, content: memory.content },
    })),
  );
}

/**
 * Fills in the vectors writes could not get (endpoint down, imports, memories stored before vectors
 * were configured, text changed): each round takes a bounded batch of the queued memories of a
 * bounded number of workspaces, embeds them and stores the vectors if the text is still the one
 * embedded. The store's queue (memoriesNeedingEmbedding) is the only state, so a restart loses nothing.
 */
export function createEmbeddingBackfill(options: BackfillOptions): EmbeddingBackfill {
  const { store, embedder, logger } = options;
  const workspacesPerRound = options.workspacesPerRound ?? DEFAULT_WORKSPACES_PER_ROUND;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const abort = new AbortController();

  async function runOnce(): Promise<number> {
    let stored = 0;
    for (const workspace of await store.workspacesNeedingEmbedding(workspacesPerRound)) {
      if (stopped) break;
      try {
        stored += await embedQueued(store, embedder, workspace, options.batch, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) break;
        const code = (error as { code?: string }).code;
        // The endpoint is down: every workspace would fail the same way, so the round ends here.
        if (code === 'UNAVAILABLE') {
          logger.warn({ err: error }, 'embedding back-fill paused until the next round');
          break;
        }
        logger.warn({ err: error, workspace }, 'embedding back-fill skipped a workspace');
      }
    }
    if (stored > 0) logger.info({ stored }, 'embedding back-fill stored vectors');
    return stored;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, options.intervalMs);
    timer.unref();
  };
  const tick = () => {
    running = runOnce()
      .catch((error: unknown) => logger.warn({ err: error }, 'embedding back-fill round failed'))
      .finally(() => {
        running = null;
        schedule();
      });
  };

  return {
    start() {
      if (timer || running || stopped) return;
      tick();
    },
    async stop() {
      stopped = true;
      abort.abort(new Error('embedding back-fill stopped'));
      if (timer) clearTimeout(timer);
      await running;
    },
    runOnce,
  };
}
