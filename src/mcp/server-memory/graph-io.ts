import { newId } from '../../domain/ids.js';
import {
  type Entity,
  type EntityMemory,
  entityNameOf,
  entityOf,
  keyForName,
  memoryFieldsFor,
  type Relation,
  relationTextsOf,
} from '../../domain/server-memory.js';
import {
  type EntityFieldsFragment,
  type ImportEdgeInput,
  type ImportMemoryInput,
  type RelationFieldsFragment,
  ServerMemoryLookupDocument,
  ServerMemoryRelationPageDocument,
  ServerMemoryTouchingDocument,
  ServerMemoryWriteDocument,
  type TypedDocumentString,
} from '../../generated/graphql.js';
import type { Execute, OperationError } from '../execute.js';

/*
 * What the profile's tools share: every read and write is one of the named operations in
 * schema/operations/server-memory-*.graphql, run through `execute` like every other tool's.
 */

/** A failure the tool answers as an isError result (the API's codes). */
export class ToolFailure extends Error {
  constructor(readonly errors: OperationError[]) {
    super(errors[0]?.message ?? 'tool failed');
  }
}

export async function run<TResult, TVariables>(
  execute: Execute,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const outcome = await execute(document, variables);
  if (outcome.errors) throw new ToolFailure(outcome.errors);
  return outcome.data;
}

/** The official server's words for a missing entity, with the API's code. */
export const entityNotFound = (name: string, argument: string): ToolFailure =>
  new ToolFailure([{ code: 'NOT_FOUND', message: `Entity with name ${name} not found`, argument, retryable: false }]);

/** Query.memories answers at most this many names per call. */
const NAMES_PER_LOOKUP = 100;
/** ServerMemoryTouching's neighbour limit (the API's most). */
const NEIGHBORS_PER_ENTITY = 100;
/** importGraph takes at most this many records per call (one transaction each). */
const RECORDS_PER_WRITE = 1000;

export type StoredEntity = EntityFieldsFragment;

/** The stored memories of the given entity names (by key), keyed by name; missing names are absent. */
export async function lookupEntities(execute: Execute, names: readonly string[]): Promise<Map<string, StoredEntity>> {
  const distinct = [...new Set(names)];
  const found = new Map<string, StoredEntity>();
  for (let at = 0; at < distinct.length; at += NAMES_PER_LOOKUP) {
    const chunk = distinct.slice(at, at + NAMES_PER_LOOKUP);
    const data = await run(execute, ServerMemoryLookupDocument, { ids: chunk.map(keyForName) });
    data.memories.forEach((memory, index) => {
      const name = chunk[index] as string;
      // A key lookup falls back to ids: only the memory that answers to this name is this entity.
      if (memory && entityNameOf(memory) === name) found.set(name, memory);
    });
  }
  return found;
}

/**
 * Edges read to complete the relations of an entity with more than NEIGHBORS_PER_ENTITY of them
 * (Memory.neighbors answers at most 100): the workspace's edges are walked a page at a time, up to
 * this many. The official server's graphs are small; past this the strongest 100 per entity stand.
 */
const EDGES_SCANNED_FOR_HUBS = 20_000;
const EDGE_PAGE = 100;

/** Relations with at least one end among `memoryIds`, each edge once, in creation (id) order. */
export async function relationsTouching(execute: Execute, memoryIds: readonly string[]): Promise<Relation[]> {
  const edges = new Map<string, RelationFieldsFragment>();
  let hubs = false;
  for (const id of memoryIds) {
    const neighbors = (await run(execute, ServerMemoryTouchingDocument, { id })).memory?.neighbors ?? [];
    if (neighbors.length >= NEIGHBORS_PER_ENTITY) hubs = true;
    for (const neighbor of neighbors) edges.set(neighbor.edge.id, neighbor.edge);
  }
  if (hubs) {
    const wanted = new Set(memoryIds);
    let after: string | null = null;
    for (let read = 0; read < EDGES_SCANNED_FOR_HUBS; read += EDGE_PAGE) {
      const page: Awaited<ReturnType<typeof edgePage>> = await edgePage(execute, after);
      for (const { node } of page.edges)
        if (wanted.has(node.from.id) || wanted.has(node.to.id)) edges.set(node.id, node);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
  }
  return [...edges.values()].sort(byId).flatMap(relationsOf);
}

async function edgePage(execute: Execute, after: string | null) {
  return (await run(execute, ServerMemoryRelationPageDocument, { first: EDGE_PAGE, after })).edgesConnection;
}

/** One relation per text the edge stands for. */
export function relationsOf(edge: RelationFieldsFragment): Relation[] {
  const from = entityNameOf(edge.from);
  const to = entityNameOf(edge.to);
  return relationTextsOf(edge).map((relationType) => ({ from, to, relationType }));
}

export const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const asEntity = (memory: EntityMemory): Entity => entityOf(memory);

/** A new memory for an entity: a fresh time-ordered id, so reads list entities in creation order. */
export const newEntityRecord = (entity: Entity): ImportMemoryInput =>
  withoutNulls({ id: newId(), ...memoryFieldsFor(entity) });

/** An existing memory rewritten with new fields, its weight, tags and everything else kept. */
export const replacedRecord = (memory: StoredEntity, changes: Partial<ImportMemoryInput>): ImportMemoryInput =>
  withoutNulls({
    id: memory.id,
    key: memory.key,
    title: memory.title,
    kind: memory.kind,
    content: memory.content,
    tags: memory.tags,
    weight: memory.weight,
    metadata: memory.metadata,
    ...changes,
  });

function withoutNulls(record: ImportMemoryInput): ImportMemoryInput {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== null && value !== undefined),
  ) as never;
}

/** Writes memories then edges, at most RECORDS_PER_WRITE per transaction (one for any usual call). */
export async function write(
  execute: Execute,
  records: { memories?: ImportMemoryInput[]; edges?: ImportEdgeInput[] },
): Promise<void> {
  const memories = records.memories ?? [];
  const edges = records.edges ?? [];
  for (let at = 0; at < memories.length + edges.length; at += RECORDS_PER_WRITE) {
    const slice = (from: number, list: unknown[]) =>
      list.slice(Math.max(0, at - from), Math.max(0, at + RECORDS_PER_WRITE - from));
    const chunk = {
      memories: slice(0, memories) as ImportMemoryInput[],
      edges: slice(memories.length, edges) as ImportEdgeInput[],
    };
    await run(execute, ServerMemoryWriteDocument, chunk);
  }
}
