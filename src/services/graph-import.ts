import { associationTerms } from '../domain/associations.js';
import { badInput, conflict, EngramError } from '../domain/errors.js';
import type { EdgeLineValue, MemoryLineValue } from '../domain/graph-records.js';
import { newId } from '../domain/ids.js';
import { isKnownRelationType } from '../domain/relations.js';
import type { NewMemory } from '../domain/types.js';
import type { WeightPolicy } from '../domain/weights.js';
import { compareIds } from '../store/key-order.js';
import type { GraphStore, ImportBatch, ImportEdge } from '../store/port.js';

/** A validated record and where it came from ("line 17", "edges[3]"), for error messages. */
export interface Placed<T> {
  at: string;
  value: T;
}

export interface ImportScope {
  store: GraphStore;
  workspace: string;
  policy: WeightPolicy;
  strictTypes: boolean;
  /** Whether imported memories get association terms (ENGRAM_ASSOCIATIONS); absent: they do not. */
  associations?: boolean;
}

/** Records gathered for one importBatch call (one transaction). */
export class PendingBatch {
  readonly memories: Placed<MemoryLineValue>[] = [];
  readonly edges: Placed<EdgeLineValue>[] = [];

  get size(): number {
    return this.memories.length + this.edges.length;
  }

  add(at: string, record: MemoryLineValue | EdgeLineValue): void {
    if (record.record === 'memory') this.memories.push({ at, value: record });
    else this.edges.push({ at, value: record });
  }
}

/**
 * Writes one batch in one transaction through the port's idempotent importBatch: memories by id,
 * edges by (from, to, type), so importing the same records twice changes nothing the second time.
 * The rules the port does not know are checked first (strict relation types, one key per memory),
 * and a failure names the record it is about: an edge whose end is neither in the batch nor in the
 * workspace is NOT_FOUND at its position. Nothing is written when anything fails.
 */
export async function importPending(
  scope: ImportScope,
  pending: PendingBatch,
  now: string,
  write: (batch: ImportBatch) => Promise<{ memories: number; edges: number }> = (batch) =>
    scope.store.importBatch(scope.workspace, batch, now),
): Promise<{ memories: number; edges: number }> {
  const { policy } = scope;
  if (scope.strictTypes) {
    const unknown = pending.edges.find((edge) => !isKnownRelationType(edge.value.type));
    if (unknown)
      throw badInput(
        `${unknown.at}: type`,
        `"${unknown.value.type}" is not a known relation type (ENGRAM_STRICT_TYPES is on)`,
      );
  }
  const keys = new Map<string, { id: string; at: string }>();
  for (const { at, value } of pending.memories) {
    if (!value.key) continue;
    const holder = keys.get(value.key);
    if (holder && holder.id !== value.id)
      throw conflict(`${at}: key "${value.key}" is already used by memory "${holder.id}" (${holder.at})`);
    keys.set(value.key, { id: value.id, at });
  }
  const batch: ImportBatch = {
    memories: pending.memories.map(({ value }): NewMemory => {
      const memory: NewMemory = {
        id: value.id,
        key: value.key ?? null,
        title: value.title,
        content: value.content ?? null,
        kind: value.kind ?? null,
        tags: value.tags ?? [],
        weight: value.weight ?? policy.defaultMemoryWeight,
        metadata: (value.metadata ?? null) as NewMemory['metadata'],
      };
      return scope.associations ? { ...memory, terms: associationTerms(memory) } : memory;
    }),
    edges: inTripleOrder(pending.edges).map(
      ({ value }): ImportEdge => ({
        id: newId(),
        fromId: value.from,
        toId: value.to,
        type: value.type,
        weight: value.weight ?? policy.defaultEdgeWeight,
        metadata: (value.metadata ?? null) as ImportEdge['metadata'],
      }),
    ),
  };
  try {
    return await write(batch);
  } catch (error) {
    if (error instanceof EngramError && error.code === 'NOT_FOUND') throw await missingEnd(scope, pending, error);
    if (error instanceof EngramError && error.code === 'CONFLICT') {
      const first = pending.memories[0]?.at ?? pending.edges[0]?.at;
      const last = pending.memories.at(-1)?.at ?? pending.edges.at(-1)?.at;
      throw conflict(`${first === last ? first : `${first} to ${last}`}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * The edges in (from, to, type) order, the order the stores write them in, so their new
 * time-ordered ids rise with it and the id index is appended to rather than split at random.
 * Stable: of two records for one edge, the later still comes later (and wins).
 */
const inTripleOrder = (edges: readonly Placed<EdgeLineValue>[]): Placed<EdgeLineValue>[] =>
  [...edges].sort(
    ({ value: a }, { value: b }) => compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.type, b.type),
  );

/** Finds the first edge naming a memory that is neither in the batch nor in the workspace. */
async function missingEnd(scope: ImportScope, pending: PendingBatch, cause: EngramError): Promise<EngramError> {
  const inBatch = new Set(pending.memories.map((memory) => memory.value.id));
  const outside = [
    ...new Set(pending.edges.flatMap(({ value }) => [value.from, value.to]).filter((id) => !inBatch.has(id))),
  ];
  const found = new Set<string>();
  for (let start = 0; start < outside.length; start += 500) {
    const chunk = outside.slice(start, start + 500);
    const memories = await scope.store.getMemories(scope.workspace, chunk);
    memories.forEach((memory, at) => {
      if (memory && memory.id === chunk[at]) found.add(memory.id);
    });
  }
  for (const { at, value } of pending.edges) {
    for (const [end, id] of [
      ['from', value.from],
      ['to', value.to],
    ] as const) {
      if (!inBatch.has(id) && !found.has(id)) return missingEndError(at, end, id, cause);
    }
  }
  return cause;
}

/** NOT_FOUND for an imported edge whose `end` names no memory of the workspace or of the import before it. */
export function missingEndError(at: string, end: 'from' | 'to', id: string, cause?: unknown): EngramError {
  return new EngramError(
    'NOT_FOUND',
    `${at}: ${end}: no memory "${id}" in this workspace or among the memories imported with it (memories must come before the edges that name them)`,
    { cause, extensions: { argument: end } },
  );
}
