import { builder } from './builder.js';
import type {
  AdjacentEdge,
  DeleteResult,
  EdgeRecord,
  MemoryRecord,
  PathStepView,
  PathView,
  RelationTypeRecord,
  TraversalHitView,
  WeightChangeView,
  WeightEventRecord,
} from './shapes.js';

/** Object refs are declared apart from their fields so types that point at each other can be split into files. */
export const MemoryRef = builder.objectRef<MemoryRecord>('Memory');
export const EdgeRef = builder.objectRef<EdgeRecord>('Edge');
export const NeighborRef = builder.objectRef<AdjacentEdge>('Neighbor');
export const PathResultRef = builder.objectRef<PathView>('PathResult');
export const PathStepRef = builder.objectRef<PathStepView>('PathStep');
export const TraversalHitRef = builder.objectRef<TraversalHitView>('TraversalHit');
export const WeightEventRef = builder.objectRef<WeightEventRecord>('WeightEvent');
export const WeightChangeRef = builder.objectRef<WeightChangeView>('WeightChange');
export const RelationTypeRef = builder.objectRef<RelationTypeRecord>('RelationType');
export const DeletePayloadRef = builder.objectRef<DeleteResult>('DeletePayload');
export const UnlinkPayloadRef = builder.objectRef<EdgeRecord[]>('UnlinkPayload');
