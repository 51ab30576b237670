import type { RelationTypeInfo } from '../domain/relations.js';
import type { AdjacentEdge, EdgeRecord, MemoryRecord, WeightEventRecord } from '../domain/types.js';
import type { WeightChangeResult } from '../services/writes.js';
import { builder } from './builder.js';

/** The values behind the object types that are not domain records. */
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

/** Object refs are declared apart from their fields so types that point at each other can be split into files. */
export const MemoryRef = builder.objectRef<MemoryRecord>('Memory');
export const EdgeRef = builder.objectRef<EdgeRecord>('Edge');
export const NeighborRef = builder.objectRef<AdjacentEdge>('Neighbor');
export const PathResultRef = builder.objectRef<PathView>('PathResult');
export const PathStepRef = builder.objectRef<PathStepView>('PathStep');
export const TraversalHitRef = builder.objectRef<TraversalHitView>('TraversalHit');
export const WeightEventRef = builder.objectRef<WeightEventRecord>('WeightEvent');
export const WeightChangeRef = builder.objectRef<WeightChangeResult>('WeightChange');
export const RelationTypeRef = builder.objectRef<RelationTypeInfo>('RelationType');
export const DeletePayloadRef = builder.objectRef<DeleteResult>('DeletePayload');
export const UnlinkPayloadRef = builder.objectRef<EdgeRecord[]>('UnlinkPayload');
