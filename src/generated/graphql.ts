/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Who asked for a weight change. Deltas per tier are configurable (defaults: AGENT 0.00001, CONSCIOUS 0.01; MANUAL sets values directly and steps 0.1 where a step is needed). */
export type AdjustmentSource =
  /** An automatic signal from an agent: the smallest step (default ±0.00001). */
  | 'AGENT'
  /** A deliberate feedback signal from a person or agent (default ±0.01). */
  | 'CONSCIOUS'
  /** A direct edit by an operator; setEdgeWeight and reverts use it. */
  | 'MANUAL';

/** Why a memory is in a context bundle. Bundles are ranked in this order. */
export type ContextRole =
  /** The other side of an open contradiction touching a seed. */
  | 'CONTRADICTING'
  /** A memory joined to a seed by an edge. */
  | 'NEIGHBOR'
  /** A version that supersedes a seed (directly or further along the SUPERSEDES chain). */
  | 'NEWER_VERSION'
  /** One of the seeds asked for. */
  | 'SEED';

/** How two memories disagree. */
export type ContradictionKind =
  /** a -CONTRADICTS-> b, or a -FAILS_TO_REPRODUCE-> b, with no supporting edge. */
  | 'DIRECT'
  /** a both supports b (VALIDATES, REPLICATES or REPRODUCES) and contradicts it (CONTRADICTS or FAILS_TO_REPRODUCE) through different edges. */
  | 'MIXED';

/** A new memory. Only title is required. */
export type CreateMemoryInput = {
  /** Body text, at most 65536 characters. */
  content?: string | null | undefined;
  /** The memory's vector for recall (docs/vectors.md): finite numbers, at most 4096; every vector of a workspace has the length of its first. Wins over the embeddings endpoint. */
  embedding?: Array<number> | null | undefined;
  /** Choose the id (letters, digits, _ . : / -; at most 128). Default: a new UUIDv7. */
  id?: string | null | undefined;
  /** Optional handle, unique in the workspace (same alphabet as id). */
  key?: string | null | undefined;
  /** Free label: fact, hypothesis, experiment, decision ... */
  kind?: string | null | undefined;
  /** Any JSON, at most 4096 bytes serialized (UTF-8). */
  metadata?: unknown;
  /** Free tags, at most 64, each 1..64 characters. */
  tags?: Array<string> | null | undefined;
  /** Short title, 1..500 characters. */
  title: string;
  /** Initial importance 0..1 (default 0.5). */
  weight?: number | null | undefined;
};

/** Which edges of a memory to follow, relative to that memory. */
export type Direction =
  /** Edges in either direction; direction is ignored. */
  | 'BOTH'
  /** Edges that end at the memory (other -[TYPE]-> memory). */
  | 'INCOMING'
  /** Edges that start at the memory (memory -[TYPE]-> other). */
  | 'OUTGOING';

/** USED: the memory helped (strengthen). NOT_RELEVANT: search routed here wrongly (weaken the edges that led here). NOT_USEFUL: right place, bad content (weaken the memory's own weight, not edges). */
export type FeedbackSignal =
  /** Search routed here wrongly: weaken the edges that led here. */
  | 'NOT_RELEVANT'
  /** Right place, bad content: weaken only the memory's own weight. */
  | 'NOT_USEFUL'
  /** The memory helped: strengthen it and the edges that led to it. */
  | 'USED';

/** An edge to create or replace, by (from, to, type) (the fields of an `engram import` edge line). */
export type ImportEdgeInput = {
  /** Source memory id: in this workspace, or among the memories of the same call. */
  from: string;
  /** Any JSON, at most 4096 bytes; replaces the metadata of an existing edge. */
  metadata?: unknown;
  /** Target memory id: in this workspace, or among the memories of the same call; must differ from `from`. */
  to: string;
  /** Relation type; normalised to UPPER_SNAKE_CASE (caused_by -> CAUSED_BY). */
  type: string;
  /** Weight 0..1 (default 0.5); replaces the weight of an existing edge, with no WeightEvent. */
  weight?: number | null | undefined;
};

/** A memory to create or replace, by id (the fields of an `engram import` memory line). Fields left out take their defaults. */
export type ImportMemoryInput = {
  /** Body text, at most 65536 characters. */
  content?: string | null | undefined;
  /** The memory id (letters, digits, _ . : / -; at most 128): an existing memory with this id is replaced. */
  id: string;
  /** Optional handle, unique in the workspace. */
  key?: string | null | undefined;
  /** Free label: fact, hypothesis, experiment, decision ... */
  kind?: string | null | undefined;
  /** Any JSON, at most 4096 bytes serialized (UTF-8). */
  metadata?: unknown;
  /** Free tags, at most 64, each 1..64 characters. */
  tags?: Array<string> | null | undefined;
  /** Short title, 1..500 characters. */
  title: string;
  /** Importance 0..1 (default 0.5). */
  weight?: number | null | undefined;
};

/** An edge to create, or to confirm if the same (from, to, type) exists. */
export type LinkInput = {
  /** Source memory, by id or key. */
  from: string;
  /** Any JSON (at most 4096 bytes); merged key by key into existing metadata. */
  metadata?: unknown;
  /** Why; recorded on the WeightEvent if the weight changes. */
  reason?: string | null | undefined;
  /** Target memory, by id or key; must differ from `from`. */
  to: string;
  /** Relation type; normalised to UPPER_SNAKE_CASE (caused_by -> CAUSED_BY). */
  type: string;
  /** Weight 0..1. New edge: its starting weight (default 0.5). Existing edge: set to this value with a MANUAL WeightEvent. */
  weight?: number | null | undefined;
};

/** What joined the two memories of an association on an activation path (docs/recall.md, Associations). */
export type RecallAssociationKind =
  /** A vector bridge: among the memories holding a name of the first that the question does not say and one of the question's names, the one nearest to the question's vector; its weight is that similarity. */
  | 'QUESTION_VECTOR'
  /** They share rare terms or names; its weight is the share of term weight they have in common. */
  | 'TERMS';

/** Which edge to remove: either id, or all of from, to and type. */
export type UnlinkInput = {
  /** Source memory, by id or key. */
  from?: string | null | undefined;
  /** The edge id. */
  id?: string | null | undefined;
  /** Target memory, by id or key. */
  to?: string | null | undefined;
  /** Relation type (normalised to UPPER_SNAKE_CASE). */
  type?: string | null | undefined;
};

/** Fields to change; fields left out keep their value, and null clears an optional field. The weight moves only through feedback. */
export type UpdateMemoryInput = {
  /** New body text. */
  content?: string | null | undefined;
  /** A new vector, replacing the old (same rules as in CreateMemoryInput). Without it, new title or content is embedded by the endpoint. */
  embedding?: Array<number> | null | undefined;
  /** New handle (null removes it). */
  key?: string | null | undefined;
  /** New kind label. */
  kind?: string | null | undefined;
  /** New metadata, replacing the old (at most 4096 bytes). */
  metadata?: unknown;
  /** New tags, replacing the old ones. */
  tags?: Array<string> | null | undefined;
  /** New title (cannot be cleared). */
  title?: string | null | undefined;
};

export type ExploreEdgeQueryVariables = Exact<{
  id: string;
  historyLimit?: number | null | undefined;
}>;


export type ExploreEdgeQuery = { edge: { id: string, type: string, weight: number, pruned: boolean, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, title: string }, to: { id: string, title: string }, history: Array<{ id: string, at: string, source: AdjustmentSource, old: number, new: number, delta: number, reason: string | null }> } | null };

export type ExploreNeighborhoodQueryVariables = Exact<{
  id: string;
  direction?: Direction | null | undefined;
  types?: Array<string> | string | null | undefined;
  limit?: number | null | undefined;
}>;


export type ExploreNeighborhoodQuery = { memory: { id: string, key: string | null, title: string, kind: string | null, weight: number, content: string | null, tags: Array<string>, createdAt: string, updatedAt: string, neighbors: Array<{ direction: Direction, edge: { id: string, type: string, weight: number, pruned: boolean, from: { id: string }, to: { id: string } }, memory: { id: string, key: string | null, title: string, kind: string | null, weight: number } }> } | null };

export type ExplorePathQueryVariables = Exact<{
  from: string;
  to: string;
  maxHops?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
  direction?: Direction | null | undefined;
}>;


export type ExplorePathQuery = { path: { found: boolean, hops: number, message: string | null, steps: Array<{ memory: { id: string, key: string | null, title: string, kind: string | null, weight: number }, edgeToNext: { id: string, type: string, weight: number, pruned: boolean, from: { id: string }, to: { id: string } } | null }> } };

export type ExploreSearchQueryVariables = Exact<{
  query: string;
  kinds?: Array<string> | string | null | undefined;
  tags?: Array<string> | string | null | undefined;
  limit?: number | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type ExploreSearchQuery = { searchMemories: Array<{ id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> }> };

export type MemoryFieldsFragment = { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> };

export type MemoryRefFieldsFragment = { id: string, key: string | null, title: string };

export type EdgeFieldsFragment = { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } };

export type WeightChangeFieldsFragment = { previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } };

export type EntityFieldsFragment = { id: string, key: string | null, title: string, kind: string | null, content: string | null, tags: Array<string>, weight: number, metadata: unknown };

export type RelationEndFieldsFragment = { id: string, key: string | null, title: string, metadata: unknown };

export type RelationFieldsFragment = { id: string, type: string, weight: number, metadata: unknown, from: { id: string, key: string | null, title: string, metadata: unknown }, to: { id: string, key: string | null, title: string, metadata: unknown } };

export type MemoryContextQueryVariables = Exact<{
  seeds: Array<string> | string;
  budget?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
  minWeight?: number | null | undefined;
}>;


export type MemoryContextQuery = { context: { truncated: boolean, items: Array<{ role: ContextRole, score: number, memory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> } }>, edges: Array<{ id: string, type: string, weight: number, from: { id: string }, to: { id: string } }>, contradictions: Array<{ kind: ContradictionKind, strength: number, a: { id: string }, b: { id: string }, edge: { id: string } | null }> } };

export type MemoryContradictionsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  minWeight?: number | null | undefined;
  kinds?: Array<ContradictionKind> | ContradictionKind | null | undefined;
}>;


export type MemoryContradictionsQuery = { contradictionsConnection: { edges: Array<{ cursor: string, node: { kind: ContradictionKind, strength: number, resolved: boolean, a: { kind: string | null, id: string, key: string | null, title: string }, b: { kind: string | null, id: string, key: string | null, title: string }, edge: { id: string } | null, edges: Array<{ id: string, type: string, weight: number }> } }>, pageInfo: { hasNextPage: boolean } } };

export type MemoryCreateMutationVariables = Exact<{
  input: CreateMemoryInput;
}>;


export type MemoryCreateMutation = { createMemory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> } };

export type MemoryDeleteMutationVariables = Exact<{
  id: string;
}>;


export type MemoryDeleteMutation = { deleteMemory: { id: string, deleted: boolean, edgesRemoved: number } };

export type MemoryEvidenceQueryVariables = Exact<{
  id: string;
  minWeight?: number | null | undefined;
  maxDepth?: number | null | undefined;
}>;


export type MemoryEvidenceQuery = { memory: { id: string, key: string | null, title: string, evidence: { score: number, supporting: Array<{ relation: string, weight: number, memory: { kind: string | null, id: string, key: string | null, title: string }, via: Array<{ id: string, type: string, weight: number, from: { id: string }, to: { id: string } }> }>, contradicting: Array<{ relation: string, weight: number, memory: { kind: string | null, id: string, key: string | null, title: string }, via: Array<{ id: string, type: string, weight: number, from: { id: string }, to: { id: string } }> }> } } | null };

export type MemoryFeedbackMutationVariables = Exact<{
  memoryId: string;
  signal: FeedbackSignal;
  via?: Array<string> | string | null | undefined;
  recallId?: string | null | undefined;
  reason?: string | null | undefined;
}>;


export type MemoryFeedbackMutation = { feedback: Array<{ previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } }> };

export type MemoryGetQueryVariables = Exact<{
  id: string;
  neighborLimit?: number | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type MemoryGetQuery = { memory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, current?: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, neighbors: Array<{ direction: Direction, edge: { id: string, type: string, weight: number, pruned: boolean }, memory: { kind: string | null, id: string, key: string | null, title: string } }>, supersededBy: Array<{ id: string }> }, neighbors: Array<{ direction: Direction, edge: { id: string, type: string, weight: number, pruned: boolean }, memory: { kind: string | null, id: string, key: string | null, title: string } }>, supersededBy: Array<{ id: string }> } | null };

export type MemoryWithNeighborsFragment = { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, neighbors: Array<{ direction: Direction, edge: { id: string, type: string, weight: number, pruned: boolean }, memory: { kind: string | null, id: string, key: string | null, title: string } }>, supersededBy: Array<{ id: string }> };

export type MemoryHistoryQueryVariables = Exact<{
  edgeId?: string | null | undefined;
  memoryId?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MemoryHistoryQuery = { weightEventsConnection: { edges: Array<{ cursor: string, node: { id: string, at: string, source: AdjustmentSource, edgeId: string | null, memoryId: string | null, old: number, new: number, delta: number, reason: string | null, revertedBy: string | null } }>, pageInfo: { hasNextPage: boolean } } };

export type MemoryLinkMutationVariables = Exact<{
  input: LinkInput;
}>;


export type MemoryLinkMutation = { link: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } };

export type MemoryPathQueryVariables = Exact<{
  from: string;
  to: string;
  maxHops?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
  direction?: Direction | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type MemoryPathQuery = { path: { found: boolean, hops: number, message: string | null, steps: Array<{ memory: { id: string, key: string | null, title: string }, edgeToNext: { id: string, type: string, weight: number, from: { id: string } } | null }> } };

export type MemoryRecallQueryVariables = Exact<{
  query?: string | null | undefined;
  seeds?: Array<string> | string | null | undefined;
  limit?: number | null | undefined;
  maxDepth?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
  minWeight?: number | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type MemoryRecallQuery = { recall: { id: string | null, query: string | null, expiresAt: string | null, truncated: boolean, results: Array<{ score: number, lexical: number | null, vector: number | null, graph: number | null, seed: boolean, memory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> }, cue: { match: number, edge: { id: string } | null } | null, associations: Array<{ kind: RecallAssociationKind, terms: Array<string>, weight: number, from: { id: string } | null }>, path: Array<{ id: string, type: string, weight: number, pruned: boolean, from: { kind: string | null, weight: number, id: string, key: string | null, title: string }, to: { kind: string | null, weight: number, id: string, key: string | null, title: string } }> }> } };

export type MemoryReinforceMutationVariables = Exact<{
  ids: Array<string> | string;
  reason?: string | null | undefined;
}>;


export type MemoryReinforceMutation = { reinforceCoRetrieval: Array<{ previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } }> };

export type MemoryRelatedQueryVariables = Exact<{
  id: string;
  direction?: Direction | null | undefined;
  types?: Array<string> | string | null | undefined;
  includePruned?: boolean | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MemoryRelatedQuery = { memory: { id: string, key: string | null, title: string, neighborsConnection: { edges: Array<{ cursor: string, node: { direction: Direction, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } }, memory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> } } }>, pageInfo: { hasNextPage: boolean } } } | null };

export type MemoryRevertMutationVariables = Exact<{
  id: string;
}>;


export type MemoryRevertMutation = { revertWeightEvent: { previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } } };

export type MemorySearchQueryVariables = Exact<{
  query: string;
  kinds?: Array<string> | string | null | undefined;
  tags?: Array<string> | string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type MemorySearchQuery = { searchMemoriesConnection: { edges: Array<{ cursor: string, node: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> } }>, pageInfo: { hasNextPage: boolean } } };

export type MemorySetWeightMutationVariables = Exact<{
  id: string;
  weight: number;
  reason?: string | null | undefined;
}>;


export type MemorySetWeightMutation = { setEdgeWeight: { previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } } };

export type MemoryStrengthenMutationVariables = Exact<{
  edgeId?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  type?: string | null | undefined;
  amount?: number | null | undefined;
  reason?: string | null | undefined;
}>;


export type MemoryStrengthenMutation = { strengthen: { previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } } };

export type MemoryTraverseQueryVariables = Exact<{
  id: string;
  maxDepth?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
  direction?: Direction | null | undefined;
  limit?: number | null | undefined;
  currentOnly?: boolean | null | undefined;
}>;


export type MemoryTraverseQuery = { memory: { id: string, key: string | null, title: string, traverse: Array<{ depth: number, memory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> }, via: Array<{ id: string, type: string, weight: number, from: { id: string }, to: { id: string } }> }> } | null };

export type MemoryUnlinkMutationVariables = Exact<{
  input: UnlinkInput;
}>;


export type MemoryUnlinkMutation = { unlink: { removed: number, edges: Array<{ id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } }> } };

export type MemoryUpdateMutationVariables = Exact<{
  id: string;
  input: UpdateMemoryInput;
}>;


export type MemoryUpdateMutation = { updateMemory: { id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, weight: number, metadata: unknown, createdAt: string, updatedAt: string, supersededBy: Array<{ id: string }> } };

export type MemoryWeakenMutationVariables = Exact<{
  edgeId?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  type?: string | null | undefined;
  amount?: number | null | undefined;
  reason?: string | null | undefined;
}>;


export type MemoryWeakenMutation = { weaken: { previousWeight: number, newWeight: number, pruned: boolean, edge: { id: string, type: string, weight: number, pruned: boolean, metadata: unknown, createdAt: string, updatedAt: string, lastConfirmedAt: string | null, from: { id: string, key: string | null, title: string }, to: { id: string, key: string | null, title: string } } | null, memory: { id: string, key: string | null, title: string, weight: number } | null, event: { id: string, source: AdjustmentSource, reason: string | null } } };

export type MemoryWriteLookupQueryVariables = Exact<{
  ids: Array<string> | string;
}>;


export type MemoryWriteLookupQuery = { memories: Array<{ id: string, key: string | null, title: string, content: string | null, kind: string | null, tags: Array<string>, metadata: unknown, weight: number, neighbors: Array<{ edge: { type: string, weight: number, metadata: unknown, to: { id: string } } }> } | null> };

export type MemoryWriteMutationVariables = Exact<{
  memories?: Array<ImportMemoryInput> | ImportMemoryInput | null | undefined;
  edges?: Array<ImportEdgeInput> | ImportEdgeInput | null | undefined;
}>;


export type MemoryWriteMutation = { importGraph: { memories: number, edges: number } };

export type RelationTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type RelationTypesQuery = { relationTypes: Array<{ name: string, description: string, inverse: string | null }> };

export type ServerMemoryDeleteEntityMutationVariables = Exact<{
  id: string;
}>;


export type ServerMemoryDeleteEntityMutation = { deleteMemory: { deleted: boolean } };

export type ServerMemoryEdgesBetweenQueryVariables = Exact<{
  from: string;
  to: string;
  types?: Array<string> | string | null | undefined;
}>;


export type ServerMemoryEdgesBetweenQuery = { edgesBetween: Array<{ id: string, type: string, weight: number, metadata: unknown, from: { id: string, key: string | null, title: string, metadata: unknown }, to: { id: string, key: string | null, title: string, metadata: unknown } }> };

export type ServerMemoryEntityPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ServerMemoryEntityPageQuery = { memoriesConnection: { edges: Array<{ cursor: string, node: { id: string, key: string | null, title: string, kind: string | null, content: string | null, tags: Array<string>, weight: number, metadata: unknown } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ServerMemoryLookupQueryVariables = Exact<{
  ids: Array<string> | string;
}>;


export type ServerMemoryLookupQuery = { memories: Array<{ id: string, key: string | null, title: string, kind: string | null, content: string | null, tags: Array<string>, weight: number, metadata: unknown } | null> };

export type ServerMemoryRelationPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ServerMemoryRelationPageQuery = { edgesConnection: { edges: Array<{ cursor: string, node: { id: string, type: string, weight: number, metadata: unknown, from: { id: string, key: string | null, title: string, metadata: unknown }, to: { id: string, key: string | null, title: string, metadata: unknown } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ServerMemoryTouchingQueryVariables = Exact<{
  id: string;
}>;


export type ServerMemoryTouchingQuery = { memory: { id: string, neighbors: Array<{ edge: { id: string, type: string, weight: number, metadata: unknown, from: { id: string, key: string | null, title: string, metadata: unknown }, to: { id: string, key: string | null, title: string, metadata: unknown } } }> } | null };

export type ServerMemoryUnlinkMutationVariables = Exact<{
  id: string;
}>;


export type ServerMemoryUnlinkMutation = { unlink: { removed: number } };

export type ServerMemoryWriteMutationVariables = Exact<{
  memories?: Array<ImportMemoryInput> | ImportMemoryInput | null | undefined;
  edges?: Array<ImportEdgeInput> | ImportEdgeInput | null | undefined;
}>;


export type ServerMemoryWriteMutation = { importGraph: { memories: number, edges: number } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const MemoryRefFieldsFragmentDoc = new TypedDocumentString(`
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
    `, {"fragmentName":"MemoryRefFields"}) as unknown as TypedDocumentString<MemoryRefFieldsFragment, unknown>;
export const EdgeFieldsFragmentDoc = new TypedDocumentString(`
    fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}`, {"fragmentName":"EdgeFields"}) as unknown as TypedDocumentString<EdgeFieldsFragment, unknown>;
export const WeightChangeFieldsFragmentDoc = new TypedDocumentString(`
    fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}`, {"fragmentName":"WeightChangeFields"}) as unknown as TypedDocumentString<WeightChangeFieldsFragment, unknown>;
export const EntityFieldsFragmentDoc = new TypedDocumentString(`
    fragment EntityFields on Memory {
  id
  key
  title
  kind
  content
  tags
  weight
  metadata
}
    `, {"fragmentName":"EntityFields"}) as unknown as TypedDocumentString<EntityFieldsFragment, unknown>;
export const RelationEndFieldsFragmentDoc = new TypedDocumentString(`
    fragment RelationEndFields on Memory {
  id
  key
  title
  metadata
}
    `, {"fragmentName":"RelationEndFields"}) as unknown as TypedDocumentString<RelationEndFieldsFragment, unknown>;
export const RelationFieldsFragmentDoc = new TypedDocumentString(`
    fragment RelationFields on Edge {
  id
  type
  weight
  metadata
  from {
    ...RelationEndFields
  }
  to {
    ...RelationEndFields
  }
}
    fragment RelationEndFields on Memory {
  id
  key
  title
  metadata
}`, {"fragmentName":"RelationFields"}) as unknown as TypedDocumentString<RelationFieldsFragment, unknown>;
export const MemoryFieldsFragmentDoc = new TypedDocumentString(`
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
    `, {"fragmentName":"MemoryFields"}) as unknown as TypedDocumentString<MemoryFieldsFragment, unknown>;
export const MemoryWithNeighborsFragmentDoc = new TypedDocumentString(`
    fragment MemoryWithNeighbors on Memory {
  ...MemoryFields
  neighbors(limit: $neighborLimit) {
    direction
    edge {
      id
      type
      weight
      pruned
    }
    memory {
      ...MemoryRefFields
      kind
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
fragment MemoryRefFields on Memory {
  id
  key
  title
}`, {"fragmentName":"MemoryWithNeighbors"}) as unknown as TypedDocumentString<MemoryWithNeighborsFragment, unknown>;
export const ExploreEdgeDocument = new TypedDocumentString(`
    query ExploreEdge($id: ID!, $historyLimit: Int = 50) {
  edge(id: $id) {
    id
    type
    weight
    pruned
    createdAt
    updatedAt
    lastConfirmedAt
    from {
      id
      title
    }
    to {
      id
      title
    }
    history(limit: $historyLimit) {
      id
      at
      source
      old
      new
      delta
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<ExploreEdgeQuery, ExploreEdgeQueryVariables>;
export const ExploreNeighborhoodDocument = new TypedDocumentString(`
    query ExploreNeighborhood($id: ID!, $direction: Direction = BOTH, $types: [String!], $limit: Int = 30) {
  memory(id: $id) {
    id
    key
    title
    kind
    weight
    content
    tags
    createdAt
    updatedAt
    neighbors(
      direction: $direction
      types: $types
      includePruned: true
      limit: $limit
    ) {
      direction
      edge {
        id
        type
        weight
        pruned
        from {
          id
        }
        to {
          id
        }
      }
      memory {
        id
        key
        title
        kind
        weight
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExploreNeighborhoodQuery, ExploreNeighborhoodQueryVariables>;
export const ExplorePathDocument = new TypedDocumentString(`
    query ExplorePath($from: ID!, $to: ID!, $maxHops: Int = 4, $types: [String!], $direction: Direction = BOTH) {
  path(
    from: $from
    to: $to
    maxHops: $maxHops
    types: $types
    direction: $direction
  ) {
    found
    hops
    message
    steps {
      memory {
        id
        key
        title
        kind
        weight
      }
      edgeToNext {
        id
        type
        weight
        pruned
        from {
          id
        }
        to {
          id
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ExplorePathQuery, ExplorePathQueryVariables>;
export const ExploreSearchDocument = new TypedDocumentString(`
    query ExploreSearch($query: String!, $kinds: [String!], $tags: [String!], $limit: Int, $currentOnly: Boolean = false) {
  searchMemories(
    query: $query
    kinds: $kinds
    tags: $tags
    limit: $limit
    currentOnly: $currentOnly
  ) {
    ...MemoryFields
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}`) as unknown as TypedDocumentString<ExploreSearchQuery, ExploreSearchQueryVariables>;
export const MemoryContextDocument = new TypedDocumentString(`
    query MemoryContext($seeds: [ID!]!, $budget: Int, $types: [String!], $minWeight: Float) {
  context(seeds: $seeds, budget: $budget, types: $types, minWeight: $minWeight) {
    truncated
    items {
      role
      score
      memory {
        ...MemoryFields
      }
    }
    edges {
      id
      type
      weight
      from {
        id
      }
      to {
        id
      }
    }
    contradictions {
      kind
      strength
      a {
        id
      }
      b {
        id
      }
      edge {
        id
      }
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}`) as unknown as TypedDocumentString<MemoryContextQuery, MemoryContextQueryVariables>;
export const MemoryContradictionsDocument = new TypedDocumentString(`
    query MemoryContradictions($first: Int, $after: String, $minWeight: Float, $kinds: [ContradictionKind!]) {
  contradictionsConnection(
    first: $first
    after: $after
    minWeight: $minWeight
    kinds: $kinds
  ) {
    edges {
      cursor
      node {
        kind
        strength
        resolved
        a {
          ...MemoryRefFields
          kind
        }
        b {
          ...MemoryRefFields
          kind
        }
        edge {
          id
        }
        edges {
          id
          type
          weight
        }
      }
    }
    pageInfo {
      hasNextPage
    }
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}`) as unknown as TypedDocumentString<MemoryContradictionsQuery, MemoryContradictionsQueryVariables>;
export const MemoryCreateDocument = new TypedDocumentString(`
    mutation MemoryCreate($input: CreateMemoryInput!) {
  createMemory(input: $input) {
    ...MemoryFields
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}`) as unknown as TypedDocumentString<MemoryCreateMutation, MemoryCreateMutationVariables>;
export const MemoryDeleteDocument = new TypedDocumentString(`
    mutation MemoryDelete($id: ID!) {
  deleteMemory(id: $id) {
    id
    deleted
    edgesRemoved
  }
}
    `) as unknown as TypedDocumentString<MemoryDeleteMutation, MemoryDeleteMutationVariables>;
export const MemoryEvidenceDocument = new TypedDocumentString(`
    query MemoryEvidence($id: ID!, $minWeight: Float, $maxDepth: Int) {
  memory(id: $id) {
    ...MemoryRefFields
    evidence(minWeight: $minWeight, maxDepth: $maxDepth) {
      score
      supporting {
        relation
        weight
        memory {
          ...MemoryRefFields
          kind
        }
        via {
          id
          type
          weight
          from {
            id
          }
          to {
            id
          }
        }
      }
      contradicting {
        relation
        weight
        memory {
          ...MemoryRefFields
          kind
        }
        via {
          id
          type
          weight
          from {
            id
          }
          to {
            id
          }
        }
      }
    }
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}`) as unknown as TypedDocumentString<MemoryEvidenceQuery, MemoryEvidenceQueryVariables>;
export const MemoryFeedbackDocument = new TypedDocumentString(`
    mutation MemoryFeedback($memoryId: ID!, $signal: FeedbackSignal!, $via: [ID!], $recallId: ID, $reason: String) {
  feedback(
    memoryId: $memoryId
    signal: $signal
    via: $via
    recallId: $recallId
    reason: $reason
  ) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemoryFeedbackMutation, MemoryFeedbackMutationVariables>;
export const MemoryGetDocument = new TypedDocumentString(`
    query MemoryGet($id: ID!, $neighborLimit: Int = 10, $currentOnly: Boolean = false) {
  memory(id: $id) {
    ...MemoryWithNeighbors
    current @include(if: $currentOnly) {
      ...MemoryWithNeighbors
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment MemoryWithNeighbors on Memory {
  ...MemoryFields
  neighbors(limit: $neighborLimit) {
    direction
    edge {
      id
      type
      weight
      pruned
    }
    memory {
      ...MemoryRefFields
      kind
    }
  }
}`) as unknown as TypedDocumentString<MemoryGetQuery, MemoryGetQueryVariables>;
export const MemoryHistoryDocument = new TypedDocumentString(`
    query MemoryHistory($edgeId: ID, $memoryId: ID, $first: Int = 20, $after: String) {
  weightEventsConnection(
    edgeId: $edgeId
    memoryId: $memoryId
    first: $first
    after: $after
  ) {
    edges {
      cursor
      node {
        id
        at
        source
        edgeId
        memoryId
        old
        new
        delta
        reason
        revertedBy
      }
    }
    pageInfo {
      hasNextPage
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryHistoryQuery, MemoryHistoryQueryVariables>;
export const MemoryLinkDocument = new TypedDocumentString(`
    mutation MemoryLink($input: LinkInput!) {
  link(input: $input) {
    ...EdgeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}`) as unknown as TypedDocumentString<MemoryLinkMutation, MemoryLinkMutationVariables>;
export const MemoryPathDocument = new TypedDocumentString(`
    query MemoryPath($from: ID!, $to: ID!, $maxHops: Int, $types: [String!], $direction: Direction, $currentOnly: Boolean = false) {
  path(
    from: $from
    to: $to
    maxHops: $maxHops
    types: $types
    direction: $direction
    currentOnly: $currentOnly
  ) {
    found
    hops
    message
    steps {
      memory {
        ...MemoryRefFields
      }
      edgeToNext {
        id
        type
        weight
        from {
          id
        }
      }
    }
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}`) as unknown as TypedDocumentString<MemoryPathQuery, MemoryPathQueryVariables>;
export const MemoryRecallDocument = new TypedDocumentString(`
    query MemoryRecall($query: String, $seeds: [ID!], $limit: Int, $maxDepth: Int, $types: [String!], $minWeight: Float, $currentOnly: Boolean = false) {
  recall(
    query: $query
    seeds: $seeds
    limit: $limit
    maxDepth: $maxDepth
    types: $types
    minWeight: $minWeight
    currentOnly: $currentOnly
  ) {
    id
    query
    expiresAt
    truncated
    results {
      score
      lexical
      vector
      graph
      seed
      memory {
        ...MemoryFields
      }
      cue {
        match
        edge {
          id
        }
      }
      associations {
        kind
        from {
          id
        }
        terms
        weight
      }
      path {
        id
        type
        weight
        pruned
        from {
          ...MemoryRefFields
          kind
          weight
        }
        to {
          ...MemoryRefFields
          kind
          weight
        }
      }
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
fragment MemoryRefFields on Memory {
  id
  key
  title
}`) as unknown as TypedDocumentString<MemoryRecallQuery, MemoryRecallQueryVariables>;
export const MemoryReinforceDocument = new TypedDocumentString(`
    mutation MemoryReinforce($ids: [ID!]!, $reason: String) {
  reinforceCoRetrieval(ids: $ids, reason: $reason) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemoryReinforceMutation, MemoryReinforceMutationVariables>;
export const MemoryRelatedDocument = new TypedDocumentString(`
    query MemoryRelated($id: ID!, $direction: Direction, $types: [String!], $includePruned: Boolean, $first: Int, $after: String) {
  memory(id: $id) {
    ...MemoryRefFields
    neighborsConnection(
      direction: $direction
      types: $types
      includePruned: $includePruned
      first: $first
      after: $after
    ) {
      edges {
        cursor
        node {
          direction
          edge {
            ...EdgeFields
          }
          memory {
            ...MemoryFields
          }
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}`) as unknown as TypedDocumentString<MemoryRelatedQuery, MemoryRelatedQueryVariables>;
export const MemoryRevertDocument = new TypedDocumentString(`
    mutation MemoryRevert($id: ID!) {
  revertWeightEvent(id: $id) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemoryRevertMutation, MemoryRevertMutationVariables>;
export const MemorySearchDocument = new TypedDocumentString(`
    query MemorySearch($query: String!, $kinds: [String!], $tags: [String!], $first: Int, $after: String, $currentOnly: Boolean = false) {
  searchMemoriesConnection(
    query: $query
    kinds: $kinds
    tags: $tags
    first: $first
    after: $after
    currentOnly: $currentOnly
  ) {
    edges {
      cursor
      node {
        ...MemoryFields
      }
    }
    pageInfo {
      hasNextPage
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}`) as unknown as TypedDocumentString<MemorySearchQuery, MemorySearchQueryVariables>;
export const MemorySetWeightDocument = new TypedDocumentString(`
    mutation MemorySetWeight($id: ID!, $weight: Float!, $reason: String) {
  setEdgeWeight(id: $id, weight: $weight, reason: $reason) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemorySetWeightMutation, MemorySetWeightMutationVariables>;
export const MemoryStrengthenDocument = new TypedDocumentString(`
    mutation MemoryStrengthen($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {
  strengthen(
    edgeId: $edgeId
    from: $from
    to: $to
    type: $type
    amount: $amount
    reason: $reason
  ) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemoryStrengthenMutation, MemoryStrengthenMutationVariables>;
export const MemoryTraverseDocument = new TypedDocumentString(`
    query MemoryTraverse($id: ID!, $maxDepth: Int, $types: [String!], $direction: Direction, $limit: Int, $currentOnly: Boolean = false) {
  memory(id: $id) {
    ...MemoryRefFields
    traverse(
      maxDepth: $maxDepth
      types: $types
      direction: $direction
      limit: $limit
      currentOnly: $currentOnly
    ) {
      depth
      memory {
        ...MemoryFields
      }
      via {
        id
        type
        weight
        from {
          id
        }
        to {
          id
        }
      }
    }
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}
fragment MemoryRefFields on Memory {
  id
  key
  title
}`) as unknown as TypedDocumentString<MemoryTraverseQuery, MemoryTraverseQueryVariables>;
export const MemoryUnlinkDocument = new TypedDocumentString(`
    mutation MemoryUnlink($input: UnlinkInput!) {
  unlink(input: $input) {
    removed
    edges {
      ...EdgeFields
    }
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}`) as unknown as TypedDocumentString<MemoryUnlinkMutation, MemoryUnlinkMutationVariables>;
export const MemoryUpdateDocument = new TypedDocumentString(`
    mutation MemoryUpdate($id: ID!, $input: UpdateMemoryInput!) {
  updateMemory(id: $id, input: $input) {
    ...MemoryFields
  }
}
    fragment MemoryFields on Memory {
  id
  key
  title
  content
  kind
  tags
  weight
  metadata
  createdAt
  updatedAt
  supersededBy {
    id
  }
}`) as unknown as TypedDocumentString<MemoryUpdateMutation, MemoryUpdateMutationVariables>;
export const MemoryWeakenDocument = new TypedDocumentString(`
    mutation MemoryWeaken($edgeId: ID, $from: ID, $to: ID, $type: String, $amount: Float, $reason: String) {
  weaken(
    edgeId: $edgeId
    from: $from
    to: $to
    type: $type
    amount: $amount
    reason: $reason
  ) {
    ...WeightChangeFields
  }
}
    fragment MemoryRefFields on Memory {
  id
  key
  title
}
fragment EdgeFields on Edge {
  id
  type
  from {
    ...MemoryRefFields
  }
  to {
    ...MemoryRefFields
  }
  weight
  pruned
  metadata
  createdAt
  updatedAt
  lastConfirmedAt
}
fragment WeightChangeFields on WeightChange {
  previousWeight
  newWeight
  pruned
  edge {
    ...EdgeFields
  }
  memory {
    id
    key
    title
    weight
  }
  event {
    id
    source
    reason
  }
}`) as unknown as TypedDocumentString<MemoryWeakenMutation, MemoryWeakenMutationVariables>;
export const MemoryWriteLookupDocument = new TypedDocumentString(`
    query MemoryWriteLookup($ids: [ID!]!) {
  memories(ids: $ids) {
    id
    key
    title
    content
    kind
    tags
    metadata
    weight
    neighbors(direction: OUTGOING, includePruned: true, limit: 20) {
      edge {
        type
        weight
        metadata
        to {
          id
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryWriteLookupQuery, MemoryWriteLookupQueryVariables>;
export const MemoryWriteDocument = new TypedDocumentString(`
    mutation MemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {
  importGraph(memories: $memories, edges: $edges) {
    memories
    edges
  }
}
    `) as unknown as TypedDocumentString<MemoryWriteMutation, MemoryWriteMutationVariables>;
export const RelationTypesDocument = new TypedDocumentString(`
    query RelationTypes {
  relationTypes {
    name
    description
    inverse
  }
}
    `) as unknown as TypedDocumentString<RelationTypesQuery, RelationTypesQueryVariables>;
export const ServerMemoryDeleteEntityDocument = new TypedDocumentString(`
    mutation ServerMemoryDeleteEntity($id: ID!) {
  deleteMemory(id: $id) {
    deleted
  }
}
    `) as unknown as TypedDocumentString<ServerMemoryDeleteEntityMutation, ServerMemoryDeleteEntityMutationVariables>;
export const ServerMemoryEdgesBetweenDocument = new TypedDocumentString(`
    query ServerMemoryEdgesBetween($from: ID!, $to: ID!, $types: [String!]) {
  edgesBetween(from: $from, to: $to, types: $types) {
    ...RelationFields
  }
}
    fragment RelationEndFields on Memory {
  id
  key
  title
  metadata
}
fragment RelationFields on Edge {
  id
  type
  weight
  metadata
  from {
    ...RelationEndFields
  }
  to {
    ...RelationEndFields
  }
}`) as unknown as TypedDocumentString<ServerMemoryEdgesBetweenQuery, ServerMemoryEdgesBetweenQueryVariables>;
export const ServerMemoryEntityPageDocument = new TypedDocumentString(`
    query ServerMemoryEntityPage($first: Int!, $after: String) {
  memoriesConnection(first: $first, after: $after) {
    edges {
      cursor
      node {
        ...EntityFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment EntityFields on Memory {
  id
  key
  title
  kind
  content
  tags
  weight
  metadata
}`) as unknown as TypedDocumentString<ServerMemoryEntityPageQuery, ServerMemoryEntityPageQueryVariables>;
export const ServerMemoryLookupDocument = new TypedDocumentString(`
    query ServerMemoryLookup($ids: [ID!]!) {
  memories(ids: $ids) {
    ...EntityFields
  }
}
    fragment EntityFields on Memory {
  id
  key
  title
  kind
  content
  tags
  weight
  metadata
}`) as unknown as TypedDocumentString<ServerMemoryLookupQuery, ServerMemoryLookupQueryVariables>;
export const ServerMemoryRelationPageDocument = new TypedDocumentString(`
    query ServerMemoryRelationPage($first: Int!, $after: String) {
  edgesConnection(first: $first, after: $after) {
    edges {
      cursor
      node {
        ...RelationFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment RelationEndFields on Memory {
  id
  key
  title
  metadata
}
fragment RelationFields on Edge {
  id
  type
  weight
  metadata
  from {
    ...RelationEndFields
  }
  to {
    ...RelationEndFields
  }
}`) as unknown as TypedDocumentString<ServerMemoryRelationPageQuery, ServerMemoryRelationPageQueryVariables>;
export const ServerMemoryTouchingDocument = new TypedDocumentString(`
    query ServerMemoryTouching($id: ID!) {
  memory(id: $id) {
    id
    neighbors(direction: BOTH, includePruned: true, limit: 100) {
      edge {
        ...RelationFields
      }
    }
  }
}
    fragment RelationEndFields on Memory {
  id
  key
  title
  metadata
}
fragment RelationFields on Edge {
  id
  type
  weight
  metadata
  from {
    ...RelationEndFields
  }
  to {
    ...RelationEndFields
  }
}`) as unknown as TypedDocumentString<ServerMemoryTouchingQuery, ServerMemoryTouchingQueryVariables>;
export const ServerMemoryUnlinkDocument = new TypedDocumentString(`
    mutation ServerMemoryUnlink($id: ID!) {
  unlink(input: {id: $id}) {
    removed
  }
}
    `) as unknown as TypedDocumentString<ServerMemoryUnlinkMutation, ServerMemoryUnlinkMutationVariables>;
export const ServerMemoryWriteDocument = new TypedDocumentString(`
    mutation ServerMemoryWrite($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {
  importGraph(memories: $memories, edges: $edges) {
    memories
    edges
  }
}
    `) as unknown as TypedDocumentString<ServerMemoryWriteMutation, ServerMemoryWriteMutationVariables>;