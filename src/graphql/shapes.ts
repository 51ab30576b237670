/** The values behind each GraphQL object type. */

export type { RelationTypeInfo as RelationTypeRecord } from '../domain/relations.js';
export type { AdjacentEdge, EdgeRecord, MemoryRecord, WeightEventRecord } from '../domain/types.js';
export type { WeightChangeResult as WeightChangeView } from '../services/writes.js';

export interface PathView {
  found: boolean;
  memoryIds: string[];
  edgeIds: string[];
  message: string | null;
}

export interface PathStepView {
  memoryId: string;
  edgeToNextId: string | null;
}

export interface TraversalHitView {
  memoryId: string;
  depth: number;
  via: string[];
}

export interface DeleteResult {
  id: string;
  deleted: boolean;
  edgesRemoved: number;
}
