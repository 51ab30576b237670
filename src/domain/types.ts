/** Plain records exchanged between the domain, the loaders and the stores. Timestamps are ISO-8601 UTC. */

export type Direction = 'OUTGOING' | 'INCOMING' | 'BOTH';
export type AdjustmentSource = 'AGENT' | 'CONSCIOUS' | 'MANUAL';
export type FeedbackSignal = 'USED' | 'NOT_RELEVANT' | 'NOT_USEFUL';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface MemoryRecord {
  id: string;
  key: string | null;
  title: string;
  content: string | null;
  kind: string | null;
  tags: string[];
  weight: number;
  metadata: Json | null;
  createdAt: string;
  updatedAt: string;
}

export interface EdgeRecord {
  id: string;
  fromId: string;
  toId: string;
  type: string;
  weight: number;
  metadata: Json | null;
  createdAt: string;
  updatedAt: string;
  lastConfirmedAt: string | null;
}

export interface WeightEventRecord {
  id: string;
  at: string;
  source: AdjustmentSource;
  edgeId: string | null;
  memoryId: string | null;
  old: number;
  new: number;
  delta: number;
  reason: string | null;
  revertedBy: string | null;
}

export interface NewMemory {
  id: string;
  key: string | null;
  title: string;
  content: string | null;
  kind: string | null;
  tags: string[];
  weight: number;
  metadata: Json | null;
  /**
   * The terms it is associated with other memories by (domain/associations.ts), kept beside it as
   * derived data; absent when associations are off: the store then keeps none for it.
   */
  terms?: readonly string[];
}

/** Only the fields present are changed; `null` clears a nullable field. */
export interface MemoryPatch {
  key?: string | null;
  title?: string;
  content?: string | null;
  kind?: string | null;
  tags?: string[];
  metadata?: Json | null;
  /** Replaces its association terms (NewMemory.terms); absent leaves them as they are. */
  terms?: readonly string[];
}

/** One edge seen from one of its ends. `direction` is OUTGOING when the edge leaves `memoryId`. */
export interface AdjacentEdge {
  edge: EdgeRecord;
  direction: 'OUTGOING' | 'INCOMING';
  neighbor: MemoryRecord;
}

/** The minimum a graph walk needs from one edge; kept small because walks touch many of them. */
export interface FrontierStep {
  from: string;
  to: string;
  edgeId: string;
  weight: number;
}
