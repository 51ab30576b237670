import Database from 'better-sqlite3';
import { LruByBytes } from '../lru-by-bytes.js';
import { WalkScratch } from '../walk-scratch.js';
import { buildStatements, buildSteps } from './build.js';
import { type CatchUpStatements, catchUp, catchUpStatements } from './catch-up.js';
import { estimateBytes } from './memory-estimate.js';
import { collectFrontier, countDegrees, selectAdjacent } from './neighbor-queries.js';
import { search } from './path-search.js';
import { type AdjacencyIndex, type AdjacencyIndexOptions, DEFAULT_ADJACENCY_INDEX_OPTIONS } from './types.js';
import { WorkspaceIndex } from './workspace-index.js';

/**
 * In-process adjacency index for the SQLite store: the edges of a workspace held as CSR-like
 * typed arrays, so walks, neighbor selection and degrees read memory instead of running SQL.
 *
 * Layout (one per workspace, built on first use):
 * - nodes: every memory id of the workspace, read in id order, so a node's number is its rank in
 *   JavaScript string order (the order `path` breaks ties by), with its rowid; memories that
 *   appear later are appended after that base range and compared as strings.
 * - slots: one per edge, read in edge-id order (so "edge id asc" is an integer compare), with
 *   parallel typed arrays from, to, type, weight, rowid and the edge id packed in 16 bytes (see id-packing.ts;
 *   an id not shaped like the UUIDs Engram makes is kept as a string instead). A deleted edge
 *   keeps its slot with weight -Infinity, a tombstone that fails every `weight > threshold` test.
 * - adjacency: CSR offsets and slot lists for both directions, each list sorted strongest first
 *   (weight desc, then edge id asc): steps come out in the order path and neighbors use, and a
 *   hub's top 20 cost 20, and the entries above a weight threshold are a prefix. Next to each
 *   entry sits a copy of its other end, so a walk reads its lists front to back. A node an edge
 *   was added to after the build gets its own list (an override) instead of its CSR range.
 * - search: findShortestPath's algorithm (services/walks.ts) on integers, with the same answer
 *   and tie-breaking, and visit stamps instead of cleared arrays; see path-search.ts.
 *
 * Coherence with writes from this process and from others:
 * - Signals, checked before every use: `PRAGMA data_version` changes only when ANOTHER connection
 *   commits; a counter bumped by every write method of this store (`noteWrite`) covers this one.
 *   Neither moved: the index is current, at the cost of one pragma call.
 * - Otherwise the index catches up in one read transaction: new edges are those with a rowid above
 *   the largest it has seen; deletions (with their rowid, in case it is reused) and changes of an
 *   edge's weight, ends or type are appended to `edge_changes` by triggers, for any writer and for
 *   cascades from a deleted memory (schema.ts), and read after the index's last seq. Slots are
 *   patched in place. Too much change, a log pruned past the index, or a bulk import (which logs
 *   its workspace as changed wholesale) make it rebuild instead.
 * - Small workspaces build at once; large ones on a second read-only connection a page per
 *   event-loop turn, while walks are served by SQL (or `warm` waits for it, e.g. at start-up).
 * - Writers prune the log to its newest LOG_KEEP rows.
 *
 * Memory: each index is sized to what it holds (a workspace of one memory costs about 3.4 KB,
 * see memory-estimate.ts); indexes are dropped least recently used past `maxBytes` in all, and when unused
 * for `idleMs`; the walk buffers are one set per store (walk-scratch.ts). A dropped index is
 * built again by the next walk that needs it.
 */

/** Workspaces remembered as too large to index (so a walk does not retry the build each time). */
const TOO_LARGE_KEPT = 1_000;

interface Statements extends CatchUpStatements {
  dataVersion: Database.Statement;
}

export function createAdjacencyIndex(
  db: Database.Database,
  options: AdjacencyIndexOptions = DEFAULT_ADJACENCY_INDEX_OPTIONS,
): AdjacencyIndex {
  let statements: Statements | null = null;
  const prepared = (): Statements =>
    (statements ??= {
      ...buildStatements(db),
      ...catchUpStatements(db),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    });

  /** Least recently used first, by estimated bytes (estimateBytes). */
  const indexes = new LruByBytes<WorkspaceIndex>({ maxBytes: options.maxBytes, idleMs: options.idleMs });
  /** The walk buffers every index of this store shares. */
  const scratch = new WalkScratch();
  /** Builds running on their own connection, by workspace. */
  const building = new Map<string, Promise<void>>();
  /** Workspaces found too large to index, with the seq at which that was checked; the oldest are forgotten past TOO_LARGE_KEPT. */
  const tooLarge = new Map<string, number>();
  const markTooLarge = (workspace: string, seq: number): void => {
    tooLarge.delete(workspace);
    if (tooLarge.size >= TOO_LARGE_KEPT) tooLarge.delete(tooLarge.keys().next().value as string);
    tooLarge.set(workspace, seq);
  };
  let ownWrites = 0;
  let closed = false;
  /** Builds on this connection, blocking: for small workspaces, in-memory databases and warm-ups. */
  function buildNow(workspace: string, dataVersion: number): WorkspaceIndex | null {
    const started = performance.now();
    const index = new WorkspaceIndex(scratch);
    const steps = buildSteps(prepared(), workspace, index, options.maxBytes, markTooLarge);
    const ok = db.transaction(() => {
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value;
      }
    })();
    if (!ok) return null;
    index.dataVersion = dataVersion;
    index.ownWrites = ownWrites;
    index.builtInMs = performance.now() - started;
    return install(workspace, index);
  }

  /**
   * Builds on a second, read-only connection, a page per event-loop turn, so requests keep being
   * served (walks by SQL) meanwhile. The new index starts behind: its first use catches up from
   * the log position of its snapshot.
   */
  function buildInBackground(workspace: string): Promise<void> {
    let pending = building.get(workspace);
    if (pending) return pending;
    pending = (async () => {
      const started = performance.now();
      const reader = new Database(db.name, { readonly: true, fileMustExist: true });
      try {
        reader.pragma('cache_size = -16384');
        const index = new WorkspaceIndex(scratch);
        const steps = buildSteps(buildStatements(reader), workspace, index, options.maxBytes, markTooLarge);
        reader.exec('BEGIN');
        let ok: boolean;
        try {
          for (;;) {
            const step = steps.next();
            if (step.done) {
              ok = step.value;
              break;
            }
            await new Promise((resume) => setImmediate(resume));
            if (closed) return;
          }
        } finally {
          reader.exec('COMMIT');
        }
        if (!ok || closed) return;
        index.builtInMs = performance.now() - started;
        install(workspace, index);
      } finally {
        reader.close();
        building.delete(workspace);
      }
    })();
    building.set(workspace, pending);
    // A failed build leaves the workspace to SQL; the next walk tries again.
    pending.catch(() => undefined);
    return pending;
  }

  /** Keeps the index (dropping the least recently used past the cap); null when it alone is over the cap. */
  function install(workspace: string, index: WorkspaceIndex): WorkspaceIndex | null {
    if (indexes.set(workspace, index, estimateBytes(index))) return index;
    markTooLarge(workspace, index.cursor);
    return null;
  }
  /**
   * The workspace's index, current with every committed write; null when it is not indexed (too
   * large, or being built in the background): the caller then walks with SQL.
   */
  function current(workspace: string): WorkspaceIndex | null {
    const s = prepared();
    const dataVersion = s.dataVersion.get() as number;
    const index = indexes.get(workspace);
    // The hot path: nothing committed since the last look.
    if (index && index.dataVersion === dataVersion && index.ownWrites === ownWrites) return index;
    if (index) {
      const writesSeen = ownWrites;
      indexes.delete(workspace);
      if (catchUp(db, prepared(), workspace, index)) {
        index.dataVersion = dataVersion;
        index.ownWrites = writesSeen;
        // Patches change its size: stored again with the new estimate.
        return install(workspace, index);
      }
    }
    if (building.has(workspace)) return null;
    const checkedAt = tooLarge.get(workspace);
    if (checkedAt !== undefined) {
      if (((s.maxSeq.get() as number | null | undefined) ?? 0) === checkedAt) return null;
      tooLarge.delete(workspace);
    }
    // Small workspaces build at once; so do in-memory databases, which no second connection can see.
    if (db.memory || (s.countEdges.get(workspace) as number) <= options.backgroundAbove)
      return buildNow(workspace, dataVersion);
    void buildInBackground(workspace);
    return null;
  }
  return {
    expandFrontier(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      return collectFrontier(index, memoryIds, query);
    },

    selectAdjacent(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      return selectAdjacent(index, memoryIds, query);
    },

    countAdjacent(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      return countDegrees(index, memoryIds, query);
    },

    shortestPath(workspace, fromId, toId, maxHops, query) {
      if (fromId === toId) return { found: true, memoryIds: [fromId], edgeIds: [] };
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      return search(index, index.nodeOf.get(fromId) ?? -1, index.nodeOf.get(toId) ?? -1, maxHops, query);
    },

    noteWrite() {
      ownWrites++;
    },

    async warm(workspace) {
      if (current(workspace)) return true;
      const pending = building.get(workspace);
      if (pending) await pending;
      return current(workspace) !== null;
    },

    stats(workspace) {
      const index = indexes.peek(workspace);
      if (!index) return null;
      return {
        nodes: index.nodeIds.length,
        slots: index.slotCount,
        overlaySlots: index.slotCount - index.baseSlots,
        bytes: estimateBytes(index),
        builtInMs: index.builtInMs,
        builds: index.builds,
        catchUps: index.catchUps,
      };
    },

    totals() {
      return { indexes: indexes.size, bytes: indexes.bytes + scratch.bytes, maxBytes: indexes.maxBytes };
    },

    clear() {
      closed = true;
      indexes.clear();
      tooLarge.clear();
    },
  };
}
