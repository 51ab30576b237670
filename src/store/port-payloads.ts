/**
 * What the newer port methods take and give, for vectors, bulk loads and recall records; port.ts
 * re-exports all of it, so callers import from the port alone.
 */
import type { Json, NewMemory } from '../domain/types.js';

/** The longest vector a workspace may use (docs/vectors.md). */
export const MAX_EMBEDDING_DIMENSIONS = 4096;

/** The one check before a vector length becomes text in a table or index name (both stores). */
export function checkedDimensions(dims: number): number {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_EMBEDDING_DIMENSIONS) throw new Error(`bad dimension ${dims}`);
  return dims;
}

export interface EmbeddingItem {
  memoryId: string;
  vector: readonly number[];
  /** Store only while the memory still has this text (the back-fill embedded it; a writer may have changed it since). */
  ifText?: { title: string; content: string | null };
}

export interface NearestMemory {
  memoryId: string;
  /** Cosine distance, 0 (same direction) .. 2 (opposite). */
  distance: number;
}

export interface ImportEdge {
  fromId: string;
  toId: string;
  type: string;
  weight: number;
  metadata: Json | null;
  /** Used only when the edge is new. */
  id: string;
}

export interface ImportBatch {
  memories: NewMemory[];
  edges: ImportEdge[];
}

export interface BulkLoadOptions {
  /** About how many edges the load brings, when known (the store may defer more for a large load). */
  expectedEdges: number | null;
}

/**
 * A load into an empty workspace that is all or nothing: add() takes batches with importBatch's
 * meaning (last record wins, CONFLICT for a taken key), but the store may defer what it can rebuild
 * (indexes, full-text search, foreign-key checks) until finish(), which rebuilds it, checks every
 * edge's ends (NOT_FOUND) and makes the load visible at once. abort(), or a crash, leaves nothing.
 */
export interface BulkLoad {
  add(batch: ImportBatch, now: string): Promise<{ memories: number; edges: number }>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/** One result of a recall as recorded: its scores and the edge ids of its activation path. */
export interface RecalledResult {
  memoryId: string;
  score: number;
  lexical: number | null;
  vector: number | null;
  graph: number | null;
  seed: boolean;
  /** Edge ids, seed end first; empty for a seed. Associations are not edges and are not in it. */
  path: string[];
  /** The associations on its activation path (absent when none carried it). */
  associations?: RecallAssociation[];
  /** The recall cue that made it a seed (absent when none did). */
  cue?: RecalledCue;
}

/**
 * A recall cue as stored (domain/recall-cues.ts): a question a memory answered, filed under each of
 * its `keys`, hung on the learned association (RECALLED_WITH) the same feedback created or raised.
 */
export interface NewRecallCue {
  id: string;
  memoryId: string;
  edgeId: string;
  names: string[];
  terms: string[];
  keys: string[];
  createdAt: string;
}

/** A recall cue as findRecallCues answers it, with the current weight of the edge it hangs on. */
export type RecallCue = Omit<NewRecallCue, 'keys'> & { edgeWeight: number };

/**
 * The cue that brought a recalled memory (RecalledResult.cue): its association (feedback on the
 * memory adjusts that edge), the names and terms of the question it was learned from, and `match`,
 * the share of the recall's question terms (besides its names) the cue holds, CUE_MATCH..1.
 */
export type RecalledCue = Pick<RecallCue, 'edgeId' | 'names' | 'terms'> & { match: number };

/**
 * An association that carried activation to a recalled memory: two memories sharing rare terms,
 * or a vector bridge (domain/vector-bridges.ts).
 */
export interface RecallAssociation {
  /** Absent for shared rare terms (and in records written before bridges existed). */
  kind?: 'QUESTION_VECTOR';
  fromId: string;
  toId: string;
  /** The shared terms, rarest first; for a bridge, the names it went through. */
  terms: string[];
  /** 0..1: from how rare the terms are (domain/associations.ts); for a bridge, the question's vector similarity. */
  weight: number;
  /** Its place in the activation path, counting edges and associations from the seed end (0 = first). */
  at: number;
}

/**
 * A text search's ranked answer, kept for its later pages (searchMemoriesConnection): relevance
 * scores move whenever any memory's words change the workspace's statistics, so later pages read
 * this frozen order instead of ranking again.
 */
export interface SearchPages {
  id: string;
  /** Best first; at most SEARCH_PAGES_CAP (graphql/search-connection.ts). */
  memoryIds: string[];
  createdAt: string;
  expiresAt: string;
}

/** A recall as persisted for feedback: what was asked, what came back, and until when it can be referred to. */
export interface RecallRecord {
  id: string;
  query: string | null;
  results: RecalledResult[];
  /** The spreading stopped at the edge budget. */
  truncated: boolean;
  createdAt: string;
  expiresAt: string;
}
