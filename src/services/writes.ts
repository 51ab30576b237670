import { associationTerms } from '../domain/associations.js';
import { badInput, conflict, EngramError, edgeNotFound, memoryNotFound, notFound } from '../domain/errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { isKnownRelationType } from '../domain/relations.js';
import type { AdjustmentSource, EdgeRecord, FeedbackSignal, Json, MemoryPatch, MemoryRecord } from '../domain/types.js';
import { isPruned, manualEdgeSet, type WeightChangeRequest, type WeightPolicy } from '../domain/weights.js';
import type { Embedder } from '../embeddings/client.js';
import { attachEmbedding, checkEmbedding } from '../embeddings/write-embeddings.js';
import type { AppliedWeightChange, GraphStore } from '../store/port.js';

/** What every write needs: the store, the caller's workspace, and the rules in force. */
export interface WriteScope {
  store: GraphStore;
  workspace: string;
  policy: WeightPolicy;
  strictTypes: boolean;
  limits: { feedbackMaxEdges: number };
  /** Resolves a memory id or key in the workspace (batched and cached per request). */
  findMemory(ref: string): Promise<MemoryRecord | null>;
  /** The embeddings endpoint for new text (docs/vectors.md); absent: only client-sent vectors. */
  embedder?: Embedder | null;
  /** Whether writes index association terms (ENGRAM_ASSOCIATIONS); absent: they do not. */
  associations?: boolean;
}

export interface WeightChangeResult extends AppliedWeightChange {
  pruned: boolean;
}

/** For arguments naming a memory by id or key: NOT_FOUND, naming the argument, when it is not in the workspace. */
export async function requireMemory(
  scope: Pick<WriteScope, 'findMemory'>,
  ref: string,
  argument: string,
): Promise<MemoryRecord> {
  const memory = await scope.findMemory(ref);
  if (!memory) throw memoryNotFound(argument, ref);
  return memory;
}

function checkRelationType(scope: WriteScope, type: string, argument: string): void {
  if (scope.strictTypes && !isKnownRelationType(type)) {
    throw badInput(argument, `"${type}" is not a known relation type (ENGRAM_STRICT_TYPES is on; see relationTypes)`);
  }
}

export interface CreateMemoryInput {
  id?: string | null;
  key?: string | null;
  title: string;
  content?: string | null;
  kind?: string | null;
  tags?: string[] | null;
  weight?: number | null;
  metadata?: Json | null;
  /** The memory's vector; without it the endpoint (if configured) embeds the text. */
  embedding?: number[] | null;
}

export async function createMemory(scope: WriteScope, input: CreateMemoryInput): Promise<MemoryRecord> {
  if (input.embedding) await checkEmbedding(scope, input.embedding, 'input.embedding');
  const fields = {
    id: input.id ?? newId(),
    key: input.key ?? null,
    title: input.title,
    content: input.content ?? null,
    kind: input.kind ?? null,
    tags: input.tags ?? [],
    weight: input.weight ?? scope.policy.defaultMemoryWeight,
    metadata: input.metadata ?? null,
  };
  const memory = await scope.store.createMemory(
    scope.workspace,
    scope.associations ? { ...fields, terms: associationTerms(fields) } : fields,
    nowIso(),
  );
  await attachEmbedding(scope, memory, input.embedding ?? null, true);
  return memory;
}

export async function updateMemory(
  scope: WriteScope,
  ref: string,
  patch: MemoryPatch,
  embedding: number[] | null = null,
): Promise<MemoryRecord> {
  const memory = await requireMemory(scope, ref, 'id');
  if (embedding) await checkEmbedding(scope, embedding, 'input.embedding');
  // Terms are written again only when the text they come from changes.
  const reindex =
    scope.associations === true &&
    (patch.title !== undefined || patch.content !== undefined || patch.tags !== undefined);
  const terms = reindex
    ? associationTerms({
        title: patch.title ?? memory.title,
        content: patch.content !== undefined ? patch.content : memory.content,
        tags: patch.tags ?? memory.tags,
      })
    : undefined;
  const updated = await scope.store.updateMemory(
    scope.workspace,
    memory.id,
    terms ? { ...patch, terms } : patch,
    nowIso(),
  );
  if (!updated) throw memoryNotFound('id', ref);
  const textChanged = updated.title !== memory.title || updated.content !== memory.content;
  await attachEmbedding(scope, updated, embedding, textChanged);
  return updated;
}

export async function deleteMemory(
  scope: WriteScope,
  ref: string,
): Promise<{ id: string; deleted: boolean; edgesRemoved: number }> {
  const memory = await requireMemory(scope, ref, 'id');
  const result = await scope.store.deleteMemory(scope.workspace, memory.id);
  return { id: memory.id, deleted: result !== null, edgesRemoved: result?.edgesRemoved ?? 0 };
}

export interface LinkInput {
  from: string;
  to: string;
  type: string;
  weight?: number | null;
  metadata?: Json | null;
  reason?: string | null;
}

export async function link(scope: WriteScope, input: LinkInput): Promise<EdgeRecord> {
  checkRelationType(scope, input.type, 'input.type');
  const [from, to] = await Promise.all([
    requireMemory(scope, input.from, 'input.from'),
    requireMemory(scope, input.to, 'input.to'),
  ]);
  if (from.id === to.id) throw badInput('input.to', 'a memory cannot be linked to itself');
  const { edge } = await scope.store.linkEdge(
    scope.workspace,
    {
      id: newId(),
      fromId: from.id,
      toId: to.id,
      type: input.type,
      weight: input.weight ?? null,
      defaultWeight: scope.policy.defaultEdgeWeight,
      metadata: input.metadata ?? null,
      reason: input.reason ?? null,
      eventId: newId(),
    },
    nowIso(),
  );
  return edge;
}

export interface UnlinkInput {
  id?: string | null;
  from?: string | null;
  to?: string | null;
  type?: string | null;
}

/**
 * An edge is named by its id or by all of (from, to, type), never both: a half-given triple must not
 * fall back to the id, nor the id to a triple. The id when it is named by id, else null (the triple is complete).
 */
function selectedEdgeId(
  selector: { id?: string | null; from?: string | null; to?: string | null; type?: string | null },
  argument: string,
  idName: string,
): string | null {
  const tripleCount = [selector.from, selector.to, selector.type].filter((value) => value != null).length;
  if (selector.id != null) {
    if (tripleCount > 0) throw badInput(argument, `give either ${idName}, or all of from, to and type, not both`);
    return selector.id;
  }
  if (tripleCount !== 3) throw badInput(argument, `give either ${idName}, or all of from, to and type`);
  return null;
}

export async function unlink(scope: WriteScope, input: UnlinkInput): Promise<EdgeRecord[]> {
  const id = selectedEdgeId(input, 'input', 'id');
  if (id !== null) return scope.store.unlinkEdges(scope.workspace, { id });
  const [from, to] = await Promise.all([
    requireMemory(scope, input.from as string, 'input.from'),
    requireMemory(scope, input.to as string, 'input.to'),
  ]);
  return scope.store.unlinkEdges(scope.workspace, { fromId: from.id, toId: to.id, type: input.type as string });
}

export async function apply(scope: WriteScope, changes: WeightChangeRequest[]): Promise<WeightChangeResult[]> {
  if (changes.length === 0) return [];
  const applied = await scope.store.applyWeightChanges(
    scope.workspace,
    changes,
    { floor: scope.policy.floor, ceiling: scope.policy.ceiling },
    nowIso(),
  );
  return applied.map((change) => ({
    ...change,
    pruned: change.edge !== null && isPruned(change.newWeight, scope.policy),
  }));
}

/**
 * A delta on one edge. `found` marks an edge the service found by reading the graph rather than
 * one the caller named: if another writer removes it before the change commits, it is skipped.
 */
export const edgeChange = (
  id: string,
  delta: number,
  source: AdjustmentSource,
  reason: string | null,
  found = false,
): WeightChangeRequest => ({
  eventId: newId(),
  target: { kind: 'edge', id },
  operation: { kind: 'delta', delta },
  source,
  reason,
  ...(found ? { skipIfMissing: true } : {}),
});

/** Refuses a write that would touch more edges than ENGRAM_FEEDBACK_MAX_EDGES. */
export function tooManyEdges(scope: WriteScope, what: string, advice: string): EngramError {
  return new EngramError(
    'LIMIT_EXCEEDED',
    `${what} touches more than ${scope.limits.feedbackMaxEdges} edges (ENGRAM_FEEDBACK_MAX_EDGES); ${advice}`,
    {
      extensions: { reason: 'TOO_MANY_EDGES', maxEdges: scope.limits.feedbackMaxEdges },
    },
  );
}

const memoryChange = (
  id: string,
  delta: number,
  source: AdjustmentSource,
  reason: string | null,
): WeightChangeRequest => ({
  eventId: newId(),
  target: { kind: 'memory', id },
  operation: { kind: 'delta', delta },
  source,
  reason,
});

export interface NudgeInput {
  edgeId?: string | null;
  from?: string | null;
  to?: string | null;
  type?: string | null;
  amount?: number | null;
  reason?: string | null;
  source: AdjustmentSource;
}

/** Times weaken/strengthen look the edge up again when another writer replaced it in between. */
const NUDGE_ATTEMPTS = 3;

/**
 * weaken (sign -1) and strengthen (sign +1) of one edge, named by edgeId or by the (from, to, type)
 * triple. Never creates an edge. A triple is looked up again when the edge found is unlinked (and
 * perhaps linked again with a new id) before the change commits; an edge id names that edge only.
 */
export async function nudgeEdge(
  scope: WriteScope,
  input: NudgeInput,
  sign: 1 | -1,
  defaultAmount: number,
): Promise<WeightChangeResult> {
  const delta = sign * (input.amount ?? defaultAmount);
  const reason = input.reason ?? null;
  const edgeId = selectedEdgeId({ ...input, id: input.edgeId }, 'edgeId', 'edgeId');
  if (edgeId !== null) {
    const [edge] = await scope.store.getEdges(scope.workspace, [edgeId]);
    if (!edge) throw edgeNotFound('edgeId', edgeId);
    const [result] = await apply(scope, [edgeChange(edge.id, delta, input.source, reason)]);
    return result as WeightChangeResult;
  }
  const [fromRef, toRef, type] = [input.from as string, input.to as string, input.type as string];
  const [from, to] = await Promise.all([requireMemory(scope, fromRef, 'from'), requireMemory(scope, toRef, 'to')]);
  for (let attempt = 0; attempt < NUDGE_ATTEMPTS; attempt++) {
    const edge = await scope.store.findEdge(scope.workspace, from.id, to.id, type);
    if (!edge) break;
    const [result] = await apply(scope, [edgeChange(edge.id, delta, input.source, reason, true)]);
    if (result) return result;
  }
  throw notFound(`No ${type} edge from "${fromRef}" to "${toRef}" in this workspace; use link to create it`);
}

export async function setEdgeWeight(
  scope: WriteScope,
  edgeId: string,
  weight: number,
  reason: string | null,
): Promise<WeightChangeResult> {
  const [result] = await apply(scope, [manualEdgeSet(newId(), edgeId, weight, reason)]);
  return result as WeightChangeResult;
}

export interface FeedbackInput {
  memoryId: string;
  signal: FeedbackSignal;
  via?: string[] | null;
  reason?: string | null;
  source: AdjustmentSource;
}

/**
 * USED strengthens the memory and the edges that led to it; NOT_RELEVANT weakens those edges;
 * NOT_USEFUL weakens only the memory. Without `via`, "the edges" are all unpruned edges touching
 * the memory, at most ENGRAM_FEEDBACK_MAX_EDGES of them (more is refused before anything is read
 * or written; pass `via`). Steps are the source tier's delta; all changes commit in one
 * transaction. Edges read here (not named in `via`) that another writer removes before the
 * commit are skipped, not reported as missing.
 */
export async function feedback(scope: WriteScope, input: FeedbackInput): Promise<WeightChangeResult[]> {
  const memory = await requireMemory(scope, input.memoryId, 'memoryId');
  const reason = input.reason ?? null;
  const edgeIds = async (): Promise<string[]> => {
    if (input.via != null) {
      const edges = await scope.store.getEdges(scope.workspace, input.via);
      const missing = input.via.find((_, index) => edges[index] === null);
      if (missing !== undefined) throw edgeNotFound('via', missing);
      // An edge elsewhere in the graph did not lead here; crediting it would move an unrelated weight.
      const stray = edges.find((edge) => edge !== null && edge.fromId !== memory.id && edge.toId !== memory.id);
      if (stray) throw badInput('via', `edge "${stray.id}" does not touch memory "${input.memoryId}"`);
      return [...new Set(input.via)];
    }
    const degreeQuery = {
      direction: 'BOTH',
      types: null,
      includePruned: false,
      pruneThreshold: scope.policy.pruneThreshold,
    } as const;
    const [degree = 0] = await scope.store.countAdjacent(scope.workspace, [memory.id], degreeQuery);
    if (degree > scope.limits.feedbackMaxEdges) {
      throw tooManyEdges(
        scope,
        `feedback without via on "${input.memoryId}" (${degree} edges)`,
        'pass via: the ids of the edges that led to the memory (at most 100)',
      );
    }
    const [adjacent] = await scope.store.getAdjacent(scope.workspace, [memory.id], {
      ...degreeQuery,
      minWeight: null,
      limitPerMemory: scope.limits.feedbackMaxEdges,
    });
    return (adjacent ?? []).map((entry) => entry.edge.id);
  };
  const found = input.via == null;
  return apply(scope, await feedbackChanges(scope, { ...input, memoryId: memory.id, reason }, edgeIds, found));
}

/**
 * The changes one feedback signal makes, whatever says which edges led to the memory (via, its
 * adjacency, a recall's recorded path): USED strengthens the memory and those edges, NOT_RELEVANT
 * weakens the edges, NOT_USEFUL weakens only the memory, each by the source tier's step. The
 * edges are asked for only when the signal changes them; `found` marks edges the caller did not
 * name, which are skipped if another writer removed them since.
 */
export async function feedbackChanges(
  scope: WriteScope,
  input: { memoryId: string; signal: FeedbackSignal; source: AdjustmentSource; reason: string | null },
  edgeIds: () => Promise<readonly string[]>,
  found: boolean,
): Promise<WeightChangeRequest[]> {
  const { memoryId, signal, source, reason } = input;
  const step = scope.policy.tierDelta[source];
  const edgeChanges = async (delta: number) =>
    (await edgeIds()).map((id) => edgeChange(id, delta, source, reason, found));
  switch (signal) {
    case 'USED':
      return [memoryChange(memoryId, step, source, reason), ...(await edgeChanges(step))];
    case 'NOT_RELEVANT':
      return edgeChanges(-step);
    case 'NOT_USEFUL':
      return [memoryChange(memoryId, -step, source, reason)];
  }
}

/** Restores the weight an event replaced, as a new MANUAL event; history stays append-only. */
export async function revertWeightEvent(scope: WriteScope, eventId: string): Promise<WeightChangeResult> {
  const [event] = await scope.store.getWeightEvents(scope.workspace, [eventId]);
  if (!event) throw notFound(`id: no weight event "${eventId}" in this workspace`);
  if (event.revertedBy) throw conflict(`Weight event "${eventId}" was already reverted by "${event.revertedBy}"`);
  const target =
    event.edgeId !== null
      ? ({ kind: 'edge', id: event.edgeId } as const)
      : ({ kind: 'memory', id: event.memoryId as string } as const);
  const [result] = await apply(scope, [
    {
      eventId: newId(),
      target,
      operation: { kind: 'set', value: event.old },
      source: 'MANUAL',
      reason: `revert of ${eventId}`,
      revertsEventId: eventId,
    },
  ]);
  return result as WeightChangeResult;
}
