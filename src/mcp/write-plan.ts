import { createHash } from 'node:crypto';
import { normaliseRelationType } from '../domain/relations.js';
import type { ImportEdgeInput, ImportMemoryInput } from '../generated/graphql.js';
import type { OperationError } from './execute.js';

/*
 * memory_write in two steps: the names a batch uses for existing memories are looked up first,
 * then every record goes to importGraph in one transaction. importGraph is idempotent by id, so
 * each new memory gets an id derived from what identifies it (its key, else its title and
 * content): sending the same batch again writes the same records and changes nothing.
 */

export interface WriteMemory {
  ref?: string | undefined;
  id?: string | undefined;
  key?: string | undefined;
  title: string;
  content?: string | undefined;
  kind?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface WriteEdge {
  source_id: string;
  target_id: string;
  edge_type: string;
  weight?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface ExistingMemory {
  id: string;
  key: string | null;
  title: string;
  content: string | null;
  kind: string | null;
  tags: string[];
  metadata?: unknown;
  weight: number;
  neighbors: { edge: { type: string; weight: number; metadata?: unknown; to: { id: string } } }[];
}

type WriteStatus = 'created' | 'replaced' | 'unchanged';

export interface WritePlan {
  variables: { memories: ImportMemoryInput[]; edges: ImportEdgeInput[] };
  /** Each memory of the batch as the answer reports it. */
  written: { ref: string | null; id: string; key: string | null; status: WriteStatus }[];
  /** Edges left out because they are stored exactly as given. */
  unchangedEdges: number;
}

/** importGraph's weight for an edge given without one. */
const DEFAULT_EDGE_WEIGHT = 0.5;

const isLocal = (name: string): boolean => name.startsWith('@');

/** Import replaces every field, so a memory equal to what is stored is left out (its updated_at stays). */
const sameAsStored = (memory: WriteMemory, stored: ExistingMemory): boolean =>
  JSON.stringify([memory.key ?? null, memory.title, memory.content ?? null, memory.kind ?? null, memory.tags ?? []]) ===
    JSON.stringify([stored.key, stored.title, stored.content, stored.kind, stored.tags]) &&
  JSON.stringify(memory.metadata ?? null) === JSON.stringify(stored.metadata ?? null);

const derivedId = (memory: WriteMemory): string =>
  `mw-${createHash('sha256')
    .update(memory.key !== undefined ? `key\0${memory.key}` : `text\0${memory.title}\0${memory.content ?? ''}`)
    .digest('hex')
    .slice(0, 32)}`;

/** The names to look up: explicit ids and keys of the memories, and edge ends that are not local refs. */
export function namesToLookUp(memories: readonly WriteMemory[], edges: readonly WriteEdge[]): string[] {
  const names = new Set<string>();
  for (const memory of memories) {
    names.add(memory.id ?? derivedId(memory));
    if (memory.key !== undefined) names.add(memory.key);
  }
  for (const edge of edges) for (const end of [edge.source_id, edge.target_id]) if (!isLocal(end)) names.add(end);
  return [...names];
}

const bad = (argument: string, message: string): OperationError => ({
  code: 'BAD_USER_INPUT',
  message: `${argument}: ${message}`,
  argument,
  retryable: false,
});

/** `existing` maps each looked-up name (id or key) to the memory it names, when there is one. */
export function planWrite(
  memories: readonly WriteMemory[],
  edges: readonly WriteEdge[],
  existing: ReadonlyMap<string, ExistingMemory>,
): WritePlan | { errors: OperationError[] } {
  const errors: OperationError[] = [];
  const byName = new Map<string, string>();
  const written: WritePlan['written'] = [];
  const importMemories: ImportMemoryInput[] = [];
  memories.forEach((memory, at) => {
    if (memory.ref !== undefined && !isLocal(memory.ref))
      errors.push(bad(`memories[${at}].ref`, `a local name starts with @ (e.g. "@a"), got "${memory.ref}"`));
    if (memory.ref !== undefined && byName.has(memory.ref))
      errors.push(bad(`memories[${at}].ref`, `"${memory.ref}" names two memories of this call`));
    const found =
      existing.get(memory.id ?? derivedId(memory)) ?? (memory.key !== undefined ? existing.get(memory.key) : undefined);
    const id = memory.id ?? found?.id ?? derivedId(memory);
    for (const name of [memory.ref, memory.key, memory.id]) if (name !== undefined) byName.set(name, id);
    const status: WriteStatus =
      found === undefined ? 'created' : sameAsStored(memory, found) ? 'unchanged' : 'replaced';
    written.push({ ref: memory.ref ?? null, id, key: memory.key ?? null, status });
    if (status === 'unchanged') return;
    importMemories.push({
      id,
      title: memory.title,
      ...(memory.key !== undefined ? { key: memory.key } : {}),
      ...(memory.content !== undefined ? { content: memory.content } : {}),
      ...(memory.kind !== undefined ? { kind: memory.kind } : {}),
      ...(memory.tags !== undefined ? { tags: memory.tags } : {}),
      ...(memory.metadata !== undefined ? { metadata: memory.metadata } : {}),
      // Replacing a memory must not reset the weight feedback has given it.
      ...(found !== undefined ? { weight: found.weight } : {}),
    });
  });
  const resolve = (name: string, argument: string): string => {
    const id = byName.get(name) ?? existing.get(name)?.id;
    if (id !== undefined) return id;
    errors.push(
      isLocal(name)
        ? bad(argument, `"${name}" is not the ref of a memory in this call`)
        : { ...bad(argument, `no memory "${name}" in this workspace or this call`), code: 'NOT_FOUND' },
    );
    return name;
  };
  const storedById = new Map([...existing.values()].map((memory) => [memory.id, memory]));
  const importEdges: ImportEdgeInput[] = [];
  let unchangedEdges = 0;
  edges.forEach((edge, at) => {
    const from = resolve(edge.source_id, `edges[${at}].source_id`);
    const to = resolve(edge.target_id, `edges[${at}].target_id`);
    const type = normaliseRelationType(edge.edge_type);
    const stored = storedById.get(from)?.neighbors.find((n) => n.edge.to.id === to && n.edge.type === type)?.edge;
    // Import replaces weight and metadata; an existing edge given without them keeps its own,
    // since a weight set by feedback or a weaken must not drop back to 0.5 without a history event.
    const weight = edge.weight ?? stored?.weight ?? DEFAULT_EDGE_WEIGHT;
    const metadata = edge.metadata ?? stored?.metadata ?? null;
    if (stored && stored.weight === weight && JSON.stringify(stored.metadata ?? null) === JSON.stringify(metadata)) {
      unchangedEdges++;
      return;
    }
    importEdges.push({ from, to, type: edge.edge_type, weight, ...(metadata !== null ? { metadata } : {}) });
  });
  if (errors.length > 0) return { errors };
  return { variables: { memories: importMemories, edges: importEdges }, written, unchangedEdges };
}
