import type { AdjacencyQuery, DegreeQuery, FrontierExpansion, FrontierQuery, PathSearchOutcome } from '../../port.js';

/** Newest change-log rows kept; a reader further behind than this rebuilds its index. */
export const LOG_KEEP = 50_000;

export interface AdjacencyIndexOptions {
  /**
   * Most memory (estimated bytes, see estimateBytes) held by indexes across all workspaces:
   * past it the least recently used index is dropped first, and a workspace whose index alone
   * would not fit is walked with SQL. About 67 bytes per edge and 150 per memory (63 per edge all
   * told measured for 1M edges between 100k memories, before rowids added 4 per edge and memory).
   */
  maxBytes: number;
  /** An index unused this long is dropped (checked on use of any index, at most once a second). */
  idleMs: number;
  /**
   * A workspace with more edges than this is indexed on a second connection, a page per event-loop
   * turn, while walks are served by SQL; smaller ones are indexed at once by the walk that needs it.
   */
  backgroundAbove: number;
}

export interface AdjacentSelection {
  edgeId: string;
  otherId: string;
  direction: 'OUTGOING' | 'INCOMING';
  /**
   * Rowids of the edge and of the other end's memory, so the caller reads both rows by primary
   * key instead of through the (workspace, id) indexes; 0 when unknown. A memory's rowid can be
   * stale (the index does not hear of a memory deleted and created again), so a reader checks the
   * id of the row it gets.
   */
  edgeRid: number;
  otherRid: number;
}

export const DEFAULT_ADJACENCY_INDEX_OPTIONS: AdjacencyIndexOptions = {
  maxBytes: 1024 * 1024 * 1024,
  idleMs: 10 * 60_000,
  backgroundAbove: 5_000,
};

export interface AdjacencyIndex {
  /** Every unpruned edge leaving the given memories, from memory; null when this workspace is not indexed. */
  expandFrontier(workspace: string, memoryIds: readonly string[], query: FrontierQuery): FrontierExpansion | null;
  /**
   * For each memory, the edges getAdjacent lists (strongest first, then edge id; filtered and cut
   * per memory as the query says), as (edge id, other end, direction, rowids); the caller reads the
   * records. Null when not indexed.
   */
  selectAdjacent(workspace: string, memoryIds: readonly string[], query: AdjacencyQuery): AdjacentSelection[][] | null;
  /** countAdjacent from memory; null when not indexed. */
  countAdjacent(workspace: string, memoryIds: readonly string[], query: DegreeQuery): number[] | null;
  /** The shortest path exactly as findShortestPath over expandFrontier finds it; null when not indexed. */
  shortestPath(
    workspace: string,
    fromId: string,
    toId: string,
    maxHops: number,
    query: FrontierQuery,
  ): PathSearchOutcome | null;
  /** Tells the index this connection committed (or tried to commit) a write: the next read catches up. */
  noteWrite(): void;
  /** Builds (or finishes building) the workspace's index now; false when it cannot be indexed. */
  warm(workspace: string): Promise<boolean>;
  /** Statistics for logs and benchmarks. */
  stats(workspace: string): {
    nodes: number;
    slots: number;
    overlaySlots: number;
    bytes: number;
    builtInMs: number;
    builds: number;
    catchUps: number;
  } | null;
  /** Every index held: how many, their estimated bytes plus the walk buffers', and the cap. */
  totals(): { indexes: number; bytes: number; maxBytes: number };
  /** Drops every index and stops background builds (on close). */
  clear(): void;
}
