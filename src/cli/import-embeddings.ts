import type { Config } from '../config.js';
import { embedQueued } from '../embeddings/backfill.js';
import { embedderFor } from '../embeddings/setup.js';
import type { GraphStore } from '../store/port.js';
import { createProgress, formatCount } from './progress.js';

/**
 * After `engram import`, when an embeddings endpoint is configured: embeds the workspace's memories
 * that have no current vector, batch by batch (ENGRAM_EMBEDDINGS_BATCH), with a progress line, so a
 * loaded graph is searchable by vector when the command returns instead of after the server's
 * back-fill rounds. The import itself has committed by then: an endpoint failure only stops the
 * embedding (the back-fill takes over) and is reported, never undoes the import. A batch that
 * stores nothing (its texts changed meanwhile) ends the loop, so it cannot spin.
 */
export async function embedImported(config: Config, store: GraphStore, workspace: string): Promise<void> {
  const embedder = embedderFor(config);
  if (!embedder || !config.embeddings) return;
  const batch = config.embeddings.batch;
  const progress = createProgress(process.stderr, { label: 'embed', total: 0 });
  const started = performance.now();
  let embedded = 0;
  try {
    for (;;) {
      const stored = await embedQueued(store, embedder, workspace, batch);
      if (stored === 0) break;
      embedded += stored;
      progress.update(embedded, `${formatCount(embedded)} memories embedded`);
    }
    progress.done();
    if (embedded > 0) {
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(
        `Embedded ${formatCount(embedded)} memories with ${config.embeddings.model} in ${seconds.toFixed(1)} s.\n`,
      );
    }
  } catch (error) {
    progress.done();
    process.stderr.write(
      `Embedding stopped after ${formatCount(embedded)} memories (${(error as Error).message}); the server's back-fill will embed the rest.\n`,
    );
  }
}
