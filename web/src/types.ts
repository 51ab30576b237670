/**
 * The page's view of the graph. Response shapes come from the codegen types of the named
 * operations (src/generated, rebuilt by `npm run codegen`), so a changed operation fails type checking here.
 */
import type {
  Direction,
  ExploreEdgeQuery,
  ExploreNeighborhoodQuery,
  MemoryRecallQuery,
  MemoryWeakenMutation,
} from '../../src/generated/graphql.js';

export type { Direction };

export type NeighborhoodMemory = NonNullable<ExploreNeighborhoodQuery['memory']>;
export type EdgeDetails = NonNullable<ExploreEdgeQuery['edge']>;
export type WeightHistoryEvent = EdgeDetails['history'][number];
export type WeightChange = MemoryWeakenMutation['weaken'];
export type RecalledMemory = MemoryRecallQuery['recall']['results'][number];

/** A memory drawn on the graph. */
export interface MemoryNode {
  id: string;
  key: string | null;
  title: string;
  kind: string | null;
  weight: number;
}

/** An edge drawn on the graph. */
export interface EdgeView {
  id: string;
  type: string;
  weight: number;
  pruned: boolean;
  from: string;
  to: string;
}

/** Anything with the fields of an edge as the operations select them. */
export interface EdgeLike {
  id: string;
  type: string;
  weight: number;
  pruned: boolean;
  from: { id: string };
  to: { id: string };
}

export const toEdgeView = (edge: EdgeLike): EdgeView => ({
  id: edge.id,
  type: edge.type,
  weight: edge.weight,
  pruned: edge.pruned,
  from: edge.from.id,
  to: edge.to.id,
});

export const toMemoryNode = (memory: MemoryNode): MemoryNode => ({
  id: memory.id,
  key: memory.key,
  title: memory.title,
  kind: memory.kind,
  weight: memory.weight,
});
