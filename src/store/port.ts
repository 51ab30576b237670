import type { AssociationCandidates } from '../domain/associations.js';
import type {
  AdjacentEdge,
  AdjustmentSource,
  Direction,
  EdgeRecord,
  FrontierStep,
  Json,
  MemoryPatch,
  MemoryRecord,
  NewMemory,
  WeightEventRecord,
} from '../domain/types.js';
import type { WeightChangeRequest } from '../domain/weights.js';
import type {
  BulkLoad,
  BulkLoadOptions,
  EmbeddingItem,
  ImportBatch,
  NearestMemory,
  NewRecallCue,
  RecallCue,
  RecallRecord,
  SearchPages,
} from './port-payloads.js';

export * from './port-payloads.js';

/**
 * The GraphStore port: the only boundary between Engram's domain and a database.
 *
 * Rules every adapter keeps:
 * - Every method is scoped to one workspace; nothing of another workspace is ever read or written.
 * - Batch methods take many keys and answer in ONE round trip, with results in key order
 *   (`null` in the slot of a key that does not exist).
 * - Values arrive already validated by the domain (relation types match the UPPER_SNAKE pattern,
 *   weights are in range); adapters still pass every value as a parameter.
 * - Each write method is one transaction: it commits whole or not at all.
 * - Driver failures are mapped once to EngramError (`UNAVAILABLE` when the store is down or busy,
 *   `CONFLICT` for uniqueness violations).
 */
export interface GraphStore {
  /** A short label for logs and the start-up line, e.g. `sqlite ./data/engram.db`. */
  readonly description: string;

  /**
   * True for a store that serves the reads of one request together when they run inside its
   * RequestReads (request-reads.ts; Neo4j: one read transaction). The app enters one around each
   * operation only then: an AsyncLocalStorage costs every promise of the process a little.
   */
  readonly pooledReads?: boolean;

  /** Resolves when the store answers a trivial query; rejects with UNAVAILABLE otherwise. */
  ping(): Promise<void>;

  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;

  // ---- reads ---------------------------------------------------------------------------------

  /**
   * Memories by reference, where a reference is a memory id or its key (an id match wins over a
   * key match). One result per reference, in order; `null` where nothing matches.
   */
  getMemories(workspace: string, refs: readonly string[]): Promise<(MemoryRecord | null)[]>;

  /** Edges by id, in order; `null` where missing. */
  getEdges(workspace: string, ids: readonly string[]): Promise<(EdgeRecord | null)[]>;

  /**
   * The edges touching each memory id, each with the memory at its other end, ordered strongest
   * first (weight desc, then edge id asc). `limitPerMemory` keeps only the first N per memory;
   * `maxRows` caps the entries of the whole call, filled in key order (the memories after the
   * cap get empty lists), so a call's work never depends on how many edges a hub has.
   */
  getAdjacent(workspace: string, memoryIds: readonly string[], query: AdjacencyQuery): Promise<AdjacentEdge[][]>;

  /**
   * getMemories, and getAdjacent of each memory found, in one call: what `memory(id) { neighbors }`
   * asks, which Neo4j answers in one statement instead of two. One entry per reference, in order,
   * `null` where nothing matches; `adjacent` is exactly what getAdjacent gives for that memory,
   * with `maxRows` filled in reference order.
   */
  getMemoriesWithAdjacent(
    workspace: string,
    refs: readonly string[],
    query: AdjacencyQuery,
  ): Promise<(MemoryWithAdjacent | null)[]>;

  /**
   * A keyset page of each memory's adjacency, in getAdjacent's order (weight desc, then edge id
   * asc) and with its filters: at most `limit` entries per memory, strictly after `after` (the
   * weight and edge id of the previous page's last entry; null for the first page). With BOTH an
   * edge is listed once, even one joining a memory to itself (as OUTGOING). A page's work grows
   * with `limit` (times the memory's relation types on SQLite), never with the memory's degree,
   * where the store has an index to seek (docs/neo4j.md says where Neo4j has not).
   */
  getAdjacentPage(
    workspace: string,
    memoryIds: readonly string[],
    query: AdjacencyPageQuery,
  ): Promise<AdjacentEdge[][]>;

  /** How many edges touch each memory id (pruned edges excluded unless asked), in order. */
  countAdjacent(workspace: string, memoryIds: readonly string[], query: DegreeQuery): Promise<number[]>;

  /**
   * One step of a graph walk: every unpruned edge leaving the given memories in `direction`
   * (BOTH ignores direction), as `from` (a memory of the frontier) → `to` (the other end).
   * No ordering is promised; walkers order the steps themselves. At most `budget` steps are
   * returned; `truncated` says whether more existed.
   */
  expandFrontier(workspace: string, memoryIds: readonly string[], query: FrontierQuery): Promise<FrontierExpansion>;

  /**
   * Optional: the whole shortest-path search in one call, for a store that can run it faster than
   * one expandFrontier call per level (an in-process index, one Cypher statement). It must give
   * exactly the answer of findShortestPath (services/walks.ts) over this store's expandFrontier:
   * same path, same tie-breaking, same budget accounting. Resolves to null when it cannot answer
   * right now; the caller then walks level by level.
   */
  shortestPath?(
    workspace: string,
    fromId: string,
    toId: string,
    maxHops: number,
    query: FrontierQuery,
  ): Promise<PathSearchOutcome | null>;

  /** The edge of exactly this (from, to, type) triple, or null. */
  findEdge(workspace: string, fromId: string, toId: string, type: string): Promise<EdgeRecord | null>;

  /**
   * Unpruned edges (weight > `pruneThreshold`) whose two ends are both among `memoryIds`, in
   * either direction, any type; at most `limit` (which ones, when there are more, is unspecified),
   * ordered by edge id. The cost grows with the number of memory pairs, never with the degree of
   * a memory.
   */
  edgesAmong(
    workspace: string,
    memoryIds: readonly string[],
    query: { pruneThreshold: number; limit: number },
  ): Promise<EdgeRecord[]>;

  /** Edges joining two memories in either direction, optionally of the given types; ordered by weight desc, id asc. */
  edgesBetween(workspace: string, a: string, b: string, types: readonly string[] | null): Promise<EdgeRecord[]>;

  /**
   * Full-text search over title, content and tags, best match first: memories with every word in
   * the title, then with every word anywhere, then with any word (bm25 / Lucene score within each).
   * Text with no word lists the memories of the given kinds or tags instead, newest first (nothing
   * when neither is given). Bounded by `limit`, which `currentOnly` results still fill.
   */
  searchMemories(workspace: string, query: SearchQuery): Promise<MemoryRecord[]>;

  /**
   * searchMemories with no words (a listing of kinds or tags, newest first), and where the page
   * stops: each kind's or tag's index walk reads at most LISTING_SCAN entries (store/shared/
   * listing.ts), so a page whose filters rejected most of them may hold fewer than `limit` and
   * name the position to go on from (`resumeAfter`).
   */
  listNewest(workspace: string, query: SearchQuery): Promise<ListingPage>;

  /**
   * What associations are made of (domain/associations.ts): for each memory asked (in order; one
   * without terms is left out), its terms with how many memories of the workspace hold each,
   * counted up to `maxShared + 1`; and every other memory holding one of its rare terms (2 to
   * `maxShared` holders), once, with all its terms. A term costs one unit of `budget` and each
   * candidate listed one more; when the budget runs out the answer stops there and says
   * `truncated`. The cost grows with the memories' terms and `maxShared`, never with how many
   * memories hold a common term.
   */
  associationCandidates(
    workspace: string,
    memoryIds: readonly string[],
    query: AssociationQuery,
  ): Promise<AssociationCandidates>;

  /**
   * Weight events, newest first (`at` desc, then id desc: a total order, so events of one instant
   * keep a fixed place), filtered by any of edge, memory and source. Keyset-paged: `after` is the
   * last event of the previous page, and the answer starts strictly after it in that order.
   */
  listWeightEvents(workspace: string, filter: WeightEventFilter): Promise<WeightEventRecord[]>;

  /** The newest `limit` events of each edge, newest first (as listWeightEvents), in key order. */
  getEdgeHistories(workspace: string, edgeIds: readonly string[], limit: number): Promise<WeightEventRecord[][]>;

  /** Weight events by id, in order; `null` where missing. */
  getWeightEvents(workspace: string, ids: readonly string[]): Promise<(WeightEventRecord | null)[]>;

  /**
   * Edges of the given relation types across the whole workspace, strongest first (weight desc,
   * then id asc), without pruned edges (weight <= `pruneThreshold`) and edges lighter than
   * `minWeight`. Keyset-paged: `after` is the last edge of the previous page (its weight and id),
   * and a page holds at most `limit` edges. Used by the contradictions view to list CONTRADICTS and
   * FAILS_TO_REPRODUCE edges without a walk.
   */
  listEdgesByType(workspace: string, query: TypedEdgeQuery): Promise<EdgeRecord[]>;

  /**
   * Memories ranked by how many DISTINCT memories point at them with an unpruned edge of the
   * given types (weight >= `minWeight`), keeping those with at least `minSources`. Each entry
   * carries the count and the sum, over its sources, of each source's strongest such edge.
   * Ordered by sources desc, then weight desc, then memory id asc; at most `limit` entries, after
   * `after` when given. Every page aggregates all the qualifying edges of the workspace (the sort
   * key is an aggregate no index holds); only its `limit` entries leave the store.
   * Used by the convergence view (independent validations of a memory).
   */
  rankTargetsBySources(workspace: string, query: SourceRankQuery): Promise<SourceRank[]>;

  // ---- writes --------------------------------------------------------------------------------

  /** Inserts a memory. CONFLICT when its id or key is already taken in the workspace. */
  createMemory(workspace: string, memory: NewMemory, now: string): Promise<MemoryRecord>;

  /** Applies a patch; null when the memory does not exist. CONFLICT when a new key is taken. */
  updateMemory(workspace: string, id: string, patch: MemoryPatch, now: string): Promise<MemoryRecord | null>;

  /** Deletes a memory and every edge touching it; null when it did not exist. */
  deleteMemory(workspace: string, id: string): Promise<{ edgesRemoved: number } | null>;

  /**
   * Creates the (from, to, type) edge, or confirms it when it exists: `lastConfirmedAt = now`,
   * metadata shallow-merged into the stored object, and, when `weight` is given and differs, the
   * weight set with a MANUAL WeightEvent written in the same transaction. A new edge given a
   * `reason` gets a MANUAL WeightEvent that keeps its weight and carries the reason, in the same
   * transaction as the edge (see linkWeightChange): if either cannot be written, neither is.
   * Never creates a duplicate, even under concurrent calls.
   */
  linkEdge(workspace: string, link: LinkRequest, now: string): Promise<{ edge: EdgeRecord; created: boolean }>;

  /** Removes edges by id or by triple; returns them as they were. */
  unlinkEdges(workspace: string, selector: EdgeSelector): Promise<EdgeRecord[]>;

  /**
   * Applies weight changes in ONE transaction, each as an atomic clamped read-modify-write,
   * writing one WeightEvent per change. NOT_FOUND (and nothing changed) when any target is missing,
   * except a change marked `skipIfMissing`, which is left out of the answer instead (an edge the
   * caller did not name, removed by another writer since it was read); CONFLICT when
   * `revertsEventId` names an event that is missing or already reverted. The answer holds one entry
   * per applied change, in the order given.
   */
  applyWeightChanges(
    workspace: string,
    changes: readonly WeightChangeRequest[],
    bounds: { floor: number; ceiling: number },
    now: string,
  ): Promise<AppliedWeightChange[]>;

  // ---- bulk ----------------------------------------------------------------------------------

  /**
   * Idempotent bulk upsert, one transaction per call: memories by id (fields replaced), edges by
   * (from, to, type) (weight and metadata replaced, id kept). No WeightEvents: an import restores
   * state, it does not change it. NOT_FOUND when an edge names a memory that is in neither the
   * batch nor the store; CONFLICT when a key is taken by another memory.
   */
  importBatch(workspace: string, batch: ImportBatch, now: string): Promise<{ memories: number; edges: number }>;

  /**
   * Optional: starts a bulk load into an EMPTY workspace, or answers null when the workspace holds
   * memories (the caller then imports batch by batch with importBatch). A store without it has no
   * bulk mode. See BulkLoad.
   */
  beginBulkLoad?(workspace: string, options: BulkLoadOptions): Promise<BulkLoad | null>;

  /** Memories ordered by id, after the given id (keyset paging for streamed export). */
  listMemories(workspace: string, page: { afterId: string | null; limit: number }): Promise<MemoryRecord[]>;

  /** Edges ordered by id, after the given id (keyset paging for streamed export). */
  listEdges(workspace: string, page: { afterId: string | null; limit: number }): Promise<EdgeRecord[]>;

  // ---- recall records ------------------------------------------------------------------------

  /**
   * Stores one recall's record (at most MAX_RECALL_RESULTS results) in its own small transaction,
   * and purges at most a bounded number of the workspace's expired records on the way.
   */
  saveRecall(workspace: string, record: RecallRecord, now: string): Promise<void>;

  /** The record with this id, or null when it is unknown or expired at `now`. */
  getRecall(workspace: string, id: string, now: string): Promise<RecallRecord | null>;

  /**
   * Unexpired records, newest first (createdAt desc, then id desc); at most `limit`. Keyset-paged:
   * `after` is the last record of the previous page; a record expired since is simply left out.
   */
  listRecalls(workspace: string, query: RecallListQuery): Promise<RecallRecord[]>;

  // ---- recall cues (domain/recall-cues.ts) -------------------------------------------------------

  /**
   * Stores a cue under each of its keys, in one transaction: first removes the memory's cue with
   * the same names and terms (asked again, a question is one cue, the newest), then keeps only the
   * memory's newest `keepPerMemory` cues. Cues go with their memory when it is deleted.
   */
  saveRecallCue(workspace: string, cue: NewRecallCue, keepPerMemory: number): Promise<void>;

  /** Removes a cue, whatever its keys (a feedback whose weight changes failed takes its cue back). */
  deleteRecallCue(workspace: string, id: string): Promise<void>;

  /**
   * The cues filed under any of `keys` (at most MAX_CUE_KEYS), the newest `perKey` of each key,
   * each cue once, with the current weight of its edge; a cue whose edge is gone is left out.
   * Bounded by keys x perKey rows, whatever the workspace holds.
   */
  findRecallCues(workspace: string, keys: readonly string[], perKey: number): Promise<RecallCue[]>;

  /**
   * Stores a search's ranked ids for its later pages, in its own small transaction, and purges at
   * most a bounded number of the workspace's expired ones on the way.
   */
  saveSearchPages(workspace: string, pages: SearchPages, now: string): Promise<void>;

  /** The ranked ids saved under `id`, or null when unknown in this workspace or expired at `now`. */
  getSearchPages(workspace: string, id: string, now: string): Promise<string[] | null>;

  // ---- vectors (docs/vectors.md) ---------------------------------------------------------------

  /** The workspace's embedding dimension, fixed by the first vector stored; null before that. */
  embeddingDimensions(workspace: string): Promise<number | null>;

  /**
   * Stores one vector per memory, replacing any it had, in one transaction. BAD_USER_INPUT when a
   * vector's length differs from the workspace's dimension. An item whose memory is gone, or whose
   * `ifText` no longer matches the memory's title and content, is skipped. Answers how many were stored.
   * Changing a memory's title or content drops its vector and queues it for embedding again.
   */
  setEmbeddings(workspace: string, items: readonly EmbeddingItem[]): Promise<number>;

  /** Whether each memory id has a vector, in order. */
  hasEmbeddings(workspace: string, memoryIds: readonly string[]): Promise<boolean[]>;

  /** The `k` memories nearest to `vector` by cosine distance, nearest first; empty when the lengths differ. */
  nearestMemories(workspace: string, vector: readonly number[], k: number): Promise<NearestMemory[]>;

  /** At most `limit` memories that have no vector for their current text, oldest queued first. */
  memoriesNeedingEmbedding(workspace: string, limit: number): Promise<MemoryRecord[]>;

  /** At most `limit` workspaces with memories waiting for a vector: the back-fill's one cross-workspace read. */
  workspacesNeedingEmbedding(limit: number): Promise<string[]>;
}

export interface AdjacencyQuery {
  direction: Direction;
  types: readonly string[] | null;
  minWeight: number | null;
  /** When false, edges with weight <= pruneThreshold are left out. */
  includePruned: boolean;
  pruneThreshold: number;
  limitPerMemory: number | null;
  /** Most entries in the whole answer, filled in key order; null or absent for no cap. */
  maxRows?: number | null;
}

export interface AdjacencyPageQuery {
  direction: Direction;
  types: readonly string[] | null;
  minWeight: number | null;
  /** When false, edges with weight <= pruneThreshold are left out. */
  includePruned: boolean;
  pruneThreshold: number;
  /** The position of the previous page's last entry; null for the first page. */
  after: { weight: number; edgeId: string } | null;
  /** Most entries per memory. */
  limit: number;
}

export interface MemoryWithAdjacent {
  memory: MemoryRecord;
  adjacent: AdjacentEdge[];
}

export interface AssociationQuery {
  /** The document-frequency ceiling: a term more memories hold is too common to link anything. */
  maxShared: number;
  budget: number;
}

export interface DegreeQuery {
  direction: Direction;
  types: readonly string[] | null;
  includePruned: boolean;
  pruneThreshold: number;
}

export interface FrontierQuery {
  direction: Direction;
  types: readonly string[] | null;
  pruneThreshold: number;
  budget: number;
  /**
   * A memory whose edges (those this query keeps) weigh more than its entry together is not
   * expanded: none of its edges is returned. The edges read to weigh it still count against the
   * budget (`examined`), so a store reads at most `budget` edges whatever the caps. A memory
   * without an entry is always expanded. Recall skips this way the hubs whose every edge would
   * carry less than it passes on at all (services/recall/activation.ts, LEAST_CARRIED).
   */
  maxTotalWeight?: ReadonlyMap<string, number> | null;
}

export interface FrontierExpansion {
  steps: FrontierStep[];
  /** The budget ran out: more edges were read than it allows, and the steps stop there. */
  truncated: boolean;
  /** Edges read against the budget, returned or not (maxTotalWeight); absent when all were returned. */
  examined?: number;
}

/** A shortest-path answer: the memories and edges in order, or why none was found. */
export type PathSearchOutcome =
  | { found: true; memoryIds: string[]; edgeIds: string[] }
  | { found: false; budgetExhausted: boolean };

export interface SearchQuery {
  text: string;
  kinds: readonly string[] | null;
  tags: readonly string[] | null;
  limit: number;
  /** Leave out superseded memories: those an unpruned SUPERSEDES edge (weight > `pruneThreshold`) points at. */
  currentOnly: boolean;
  pruneThreshold: number;
  /**
   * For a listing (text with no word): the createdAt and id of the last memory of the previous
   * page; the listing goes on strictly after it in its order (newest first). Null or absent: from
   * the newest. A keyset, so a page seeks to it instead of reading the memories before it.
   */
  listedAfter?: ListingPosition | null;
}

/** A place in a listing's order: newest first by createdAt, then by id. */
export interface ListingPosition {
  createdAt: string;
  id: string;
}

export interface ListingPage {
  memories: MemoryRecord[];
  /**
   * Set when the page holds fewer than `limit` memories because a walk's scan bound stopped it,
   * not because the listing ended: the page is complete down to this position (it was read), and
   * the next page starts strictly after it.
   */
  resumeAfter: ListingPosition | null;
}

export interface TypedEdgeQuery {
  /** At least one relation type, already validated. */
  types: readonly string[];
  minWeight: number | null;
  pruneThreshold: number;
  /** Keyset cursor: the weight and id of the last edge of the previous page; null for the first page. */
  after: { weight: number; id: string } | null;
  limit: number;
}

export interface SourceRankQuery {
  /** At least one relation type, already validated. */
  types: readonly string[];
  /** Keep only memories with at least this many distinct sources (>= 1). */
  minSources: number;
  minWeight: number | null;
  pruneThreshold: number;
  /**
   * Keyset cursor: the entry the previous page ended with, exactly as this method returned it (the
   * summed weight unrounded); the page holds the entries after it in the order. Absent or null for the first page.
   */
  after?: SourceRank | null;
  limit: number;
}

export interface SourceRank {
  memoryId: string;
  /** Distinct memories with at least one qualifying edge to `memoryId`. */
  sources: number;
  /** Sum over those sources of the weight of each source's strongest qualifying edge. */
  weight: number;
}

export interface WeightEventFilter {
  edgeId: string | null;
  memoryId: string | null;
  source: AdjustmentSource | null;
  limit: number;
  /** Keyset cursor: the last event of the previous page; null or absent for the first page. */
  after?: WeightEventPosition | null;
}

/** An event's place in the newest-first order; `id` breaks ties between events of one instant. */
export interface WeightEventPosition {
  at: string;
  id: string;
}

interface RecallListQuery {
  limit: number;
  /** Records expiring at or before this instant are left out. */
  now: string;
  /** Keyset cursor: the createdAt and id of the last record of the previous page; null or absent for the first. */
  after?: { createdAt: string; id: string } | null;
}

export interface LinkRequest {
  id: string;
  fromId: string;
  toId: string;
  type: string;
  /** Weight for a new edge; for an existing edge, a weight to set (MANUAL event) or null to keep. */
  weight: number | null;
  defaultWeight: number;
  metadata: Json | null;
  /** Kept on the WeightEvent a new edge gets for it, or on the event of an existing edge's new weight. */
  reason: string | null;
  /** Id for the WeightEvent written with the link, when it writes one. */
  eventId: string;
}

export type EdgeSelector = { id: string } | { fromId: string; toId: string; type: string };

export interface AppliedWeightChange {
  previousWeight: number;
  newWeight: number;
  event: WeightEventRecord;
  edge: EdgeRecord | null;
  memory: MemoryRecord | null;
}

/** The vector methods every store implements (sqlite/vectors.ts, neo4j/vectors.ts). */
export type VectorMethods = Pick<
  GraphStore,
  | 'embeddingDimensions'
  | 'setEmbeddings'
  | 'hasEmbeddings'
  | 'nearestMemories'
  | 'memoriesNeedingEmbedding'
  | 'workspacesNeedingEmbedding'
>;
