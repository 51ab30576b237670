import { bookmarkManager as newBookmarkManager, int, type BookmarkManager } from 'neo4j-driver';
import { type EngramError, conflict, isEngramError, notFound, unavailable } from '../../domain/errors.js';
import { checkMergedMetadata, mergeMetadata } from '../../domain/metadata.js';
import type {
  AdjacentEdge,
  EdgeRecord,
  FrontierStep,
  MemoryPatch,
  NewMemory,
  WeightEventRecord,
} from '../../domain/types.js';
import { relinkWeightChange, type WeightChangeRequest } from '../../domain/weights.js';
import { capInKeyOrder } from '../key-order.js';
import type { AppliedWeightChange, GraphStore, ImportEdge, SourceRank } from '../port.js';
import {
  APPLY_EDGE_WEIGHTS,
  APPLY_MEMORY_WEIGHTS,
  CREATE_MEMORY,
  DELETE_MEMORY,
  EDGES_AMONG,
  EDGES_BETWEEN,
  FIND_EDGE,
  GET_EDGES,
  GET_EDGE_HISTORIES,
  GET_MEMORIES,
  GET_WEIGHT_EVENTS,
  IMPORT_MEMORIES,
  LINK_CONFIRM,
  LINK_PREPARE,
  LIST_EDGES,
  LIST_MEMORIES,
  PING,
  SEARCH_MEMORIES,
  UPDATE_MEMORY,
  countAdjacent,
  expandFrontier,
  getAdjacent,
  importEdges,
  linkCreate,
  listEdgesByType,
  listWeightEvents,
  rankTargetsBySources,
  unlinkEdge,
} from './cypher/index.js';
import type { DriverLike, Parameters, RecordLike, SessionLike, TransactionLike } from './driver.js';
import { classifyNeo4jError, toEngramError } from './errors.js';
import { toLuceneQuery } from './fulltext-query.js';
import { encodeJson, toEdge, toMemory, toNumber, toWeightEvent } from './records.js';
import { Neo4jSetupError, bootstrapSchema, type ServerInfo } from './schema.js';

export interface Neo4jStoreOptions {
  /** The process's one driver (createNeo4jDriver); the store closes it on close(). */
  driver: DriverLike;
  /** Null or absent: the server's default database. */
  database?: string | null;
  /** Server-side timeout of every transaction. */
  transactionTimeoutMs?: number;
  /** How long the schema bootstrap waits for new indexes. */
  indexWaitSeconds?: number;
  /** Shown in `description`, e.g. the URI without credentials. */
  label?: string;
  /**
   * Shared by every session of this store, so a read always sees this process's earlier writes,
   * even when it is routed to a cluster follower. Null turns causal chaining off.
   */
  bookmarkManager?: BookmarkManager | null;
}

export interface Neo4jStore extends GraphStore {
  /**
   * Checks the server and creates constraints and indexes, once per store (retried after a
   * failure). Rejects with Neo4jSetupError when the server refuses (credentials, privileges,
   * version, a conflicting index) and with UNAVAILABLE when it cannot be reached.
   */
  ensureSchema(): Promise<ServerInfo>;
}

/** A per-memory limit of "no limit": collect()[..n] needs an integer. */
const UNLIMITED = 2_147_483_647;
/** Bounds for link's MANUAL weight: the domain validated the value against the policy already. */
const UNBOUNDED = { floor: -Number.MAX_VALUE, ceiling: Number.MAX_VALUE };

const unique = (values: readonly string[]): string[] => [...new Set(values)];

const byNewest = (a: WeightEventRecord, b: WeightEventRecord): number =>
  a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

function memoryParameters(memory: NewMemory): Parameters {
  return {
    id: memory.id,
    key: memory.key,
    title: memory.title,
    content: memory.content,
    kind: memory.kind,
    tags: [...memory.tags],
    tagsText: memory.tags.join(' '),
    weight: memory.weight,
    metadata: encodeJson(memory.metadata),
  };
}

/** Only the fields a patch names; a null value removes the property (SET +=). */
function patchParameters(patch: MemoryPatch): Parameters {
  const changes: Parameters = {};
  if (patch.key !== undefined) changes.key = patch.key;
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.content !== undefined) changes.content = patch.content;
  if (patch.kind !== undefined) changes.kind = patch.kind;
  if (patch.tags !== undefined) {
    changes.tags = [...patch.tags];
    changes.tagsText = patch.tags.join(' ');
  }
  if (patch.metadata !== undefined) changes.metadata = encodeJson(patch.metadata);
  return changes;
}

function edgeOf(record: RecordLike): EdgeRecord {
  return toEdge(record.get('edge'), record.get('fromId'), record.get('toId'));
}

/**
 * Consecutive changes of one kind whose targets (and revert marks) are all distinct: each run is
 * one UNWIND statement, and no row of a statement reads what another row of it wrote. A change to
 * a target already in the run starts the next run, so changes still apply in the given order.
 */
function runsOf(
  changes: readonly WeightChangeRequest[],
): { kind: 'edge' | 'memory'; items: { index: number; change: WeightChangeRequest }[] }[] {
  const runs: {
    kind: 'edge' | 'memory';
    items: { index: number; change: WeightChangeRequest }[];
    touched: Set<string>;
  }[] = [];
  changes.forEach((change, index) => {
    const keys = [`target:${change.target.id}`, `event:${change.eventId}`];
    if (change.revertsEventId) keys.push(`event:${change.revertsEventId}`);
    const last = runs.at(-1);
    if (last && last.kind === change.target.kind && keys.every((key) => !last.touched.has(key))) {
      last.items.push({ index, change });
      keys.forEach((key) => last.touched.add(key));
    } else {
      runs.push({ kind: change.target.kind, items: [{ index, change }], touched: new Set(keys) });
    }
  });
  return runs.map(({ kind, items }) => ({ kind, items }));
}

export function createNeo4jStore(options: Neo4jStoreOptions): Neo4jStore {
  const { driver } = options;
  const database = options.database ?? null;
  const timeout = options.transactionTimeoutMs ?? 5000;
  const bookmarks = options.bookmarkManager === undefined ? newBookmarkManager() : options.bookmarkManager;
  let closed = false;
  let schema: Promise<ServerInfo> | null = null;

  const session = (mode: 'READ' | 'WRITE'): SessionLike =>
    driver.session({
      defaultAccessMode: mode,
      ...(database ? { database } : {}),
      ...(bookmarks ? { bookmarkManager: bookmarks } : {}),
    });

  function ensureSchema(): Promise<ServerInfo> {
    if (closed) return Promise.reject(unavailable(new Error('The Neo4j store is closed')));
    schema ??= bootstrapSchema({
      session,
      settings: { timeout },
      indexWaitSeconds: options.indexWaitSeconds ?? 30,
    }).catch((error: unknown) => {
      schema = null;
      throw error instanceof Neo4jSetupError ? error : toEngramError(error);
    });
    return schema;
  }

  /** Every operation: schema in place, one session, one managed transaction, errors mapped once. */
  async function transaction<T>(
    mode: 'READ' | 'WRITE',
    op: string,
    work: (tx: TransactionLike) => Promise<T>,
    conflictMessage?: string,
  ): Promise<T> {
    if (closed) throw unavailable(new Error('The Neo4j store is closed'));
    try {
      await ensureSchema();
    } catch (error) {
      throw error instanceof Neo4jSetupError ? unavailable(error) : error;
    }
    const current = session(mode);
    const settings = { timeout, metadata: { app: 'engram', op } };
    try {
      return mode === 'READ' ? await current.executeRead(work, settings) : await current.executeWrite(work, settings);
    } catch (error) {
      throw toEngramError(error, conflictMessage);
    } finally {
      await current.close().catch(() => undefined);
    }
  }

  const read = <T>(op: string, work: (tx: TransactionLike) => Promise<T>) => transaction('READ', op, work);

  async function rows(tx: TransactionLike, text: string, parameters: Parameters): Promise<RecordLike[]> {
    return (await tx.run(text, parameters)).records;
  }

  async function first(tx: TransactionLike, text: string, parameters: Parameters): Promise<RecordLike | null> {
    return (await rows(tx, text, parameters))[0] ?? null;
  }

  /**
   * Applies changes inside the caller's transaction, run by run (see runsOf). Everything it
   * computes is returned, nothing is kept outside, so the driver may re-run the transaction.
   */
  async function applyChanges(
    tx: TransactionLike,
    ws: string,
    changes: readonly WeightChangeRequest[],
    bounds: { floor: number; ceiling: number },
    now: string,
  ): Promise<AppliedWeightChange[]> {
    const results: AppliedWeightChange[] = new Array(changes.length);
    for (const run of runsOf(changes)) {
      const records = await rows(tx, run.kind === 'edge' ? APPLY_EDGE_WEIGHTS : APPLY_MEMORY_WEIGHTS, {
        ws,
        changes: run.items.map(({ index, change }) => ({
          index,
          eventId: change.eventId,
          targetId: change.target.id,
          isDelta: change.operation.kind === 'delta',
          amount: change.operation.kind === 'delta' ? change.operation.delta : change.operation.value,
          source: change.source,
          reason: change.reason,
          revertsEventId: change.revertsEventId ?? null,
        })),
        floor: bounds.floor,
        ceiling: bounds.ceiling,
        now,
      });
      const done = new Set<number>();
      for (const record of records) {
        const index = toNumber(record.get('index'), 'index');
        const change = changes[index] as WeightChangeRequest;
        if (record.get('revertOk') !== true) {
          throw conflict(`Weight event "${change.revertsEventId}" is missing or was already reverted`);
        }
        const event = toWeightEvent(record.get('event'));
        results[index] = {
          previousWeight: event.old,
          newWeight: event.new,
          event,
          edge: run.kind === 'edge' ? toEdge(record.get('target'), record.get('fromId'), record.get('toId')) : null,
          memory: run.kind === 'memory' ? toMemory(record.get('target')) : null,
        };
        done.add(index);
      }
      const missing = run.items.find(({ index, change }) => !done.has(index) && !change.skipIfMissing);
      if (missing)
        throw notFound(`No ${missing.change.target.kind} with id "${missing.change.target.id}" in this workspace`);
    }
    // Skipped changes (targets another writer removed) leave holes; the answer lists the applied ones in order.
    return results.filter((result) => result !== undefined);
  }

  const store: Neo4jStore = {
    description: `neo4j ${options.label ?? ''}`.trim(),

    ensureSchema,

    async ping() {
      if (closed) throw unavailable(new Error('The Neo4j store is closed'));
      // Auto-commit and never retried, before the (retried) schema bootstrap: a readiness probe
      // must answer within the connection timeout, not after the whole retry window.
      const current = session('READ');
      try {
        await current.run(PING, {}, { timeout, metadata: { app: 'engram', op: 'ping' } });
      } catch (error) {
        throw toEngramError(error);
      } finally {
        await current.close().catch(() => undefined);
      }
      try {
        await ensureSchema();
      } catch (error) {
        throw error instanceof Neo4jSetupError ? unavailable(error) : error;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await driver.close();
    },

    async getMemories(ws, refs) {
      if (refs.length === 0) return [];
      const records = await read('getMemories', (tx) => rows(tx, GET_MEMORIES, { ws, refs: unique(refs) }));
      const byRef = new Map(records.map((record) => [record.get('ref') as string, toMemory(record.get('memory'))]));
      return refs.map((ref) => byRef.get(ref) ?? null);
    },

    async getEdges(ws, ids) {
      if (ids.length === 0) return [];
      const records = await read('getEdges', (tx) => rows(tx, GET_EDGES, { ws, ids: unique(ids) }));
      const byId = new Map(records.map((record) => [record.get('edgeId') as string, edgeOf(record)]));
      return ids.map((id) => byId.get(id) ?? null);
    },

    async getAdjacent(ws, memoryIds, query) {
      if (memoryIds.length === 0) return [];
      const records = await read('getAdjacent', (tx) =>
        rows(tx, getAdjacent(query.direction), {
          ws,
          ids: unique(memoryIds),
          types: query.types ? [...query.types] : null,
          above: query.includePruned ? -1 : query.pruneThreshold,
          atLeast: query.minWeight ?? -1,
          // No memory needs more than the call's cap; the cap itself is applied in key order below.
          limit: int(Math.min(query.limitPerMemory ?? UNLIMITED, query.maxRows ?? UNLIMITED)),
        }),
      );
      const byAnchor = new Map<string, AdjacentEdge[]>();
      for (const record of records) {
        const anchor = record.get('anchorId') as string;
        const neighbor = toMemory(record.get('neighbor'));
        const outgoing = record.get('outgoing') === true;
        let list = byAnchor.get(anchor);
        if (!list) byAnchor.set(anchor, (list = []));
        list.push({
          direction: outgoing ? 'OUTGOING' : 'INCOMING',
          edge: toEdge(record.get('edge'), outgoing ? anchor : neighbor.id, outgoing ? neighbor.id : anchor),
          neighbor,
        });
      }
      return capInKeyOrder(
        memoryIds.map((id) => byAnchor.get(id) ?? []),
        query.maxRows,
      );
    },

    async countAdjacent(ws, memoryIds, query) {
      if (memoryIds.length === 0) return [];
      const records = await read('countAdjacent', (tx) =>
        rows(tx, countAdjacent(query.direction), {
          ws,
          ids: unique(memoryIds),
          types: query.types ? [...query.types] : null,
          above: query.includePruned ? -1 : query.pruneThreshold,
        }),
      );
      const counts = new Map(
        records.map((record) => [record.get('anchorId') as string, toNumber(record.get('degree'), 'degree')]),
      );
      return memoryIds.map((id) => counts.get(id) ?? 0);
    },

    async expandFrontier(ws, memoryIds, query) {
      if (memoryIds.length === 0) return { steps: [], truncated: false };
      const budget = Math.max(0, query.budget);
      const records = await read('expandFrontier', (tx) =>
        rows(tx, expandFrontier(query.direction), {
          ws,
          ids: unique(memoryIds),
          types: query.types ? [...query.types] : null,
          above: query.pruneThreshold,
          take: int(budget + 1),
        }),
      );
      const steps: FrontierStep[] = records.map((record) => ({
        from: record.get('fromId') as string,
        to: record.get('toId') as string,
        edgeId: record.get('edgeId') as string,
        weight: toNumber(record.get('weight'), 'weight'),
      }));
      const truncated = steps.length > budget;
      if (truncated) steps.length = budget;
      return { steps, truncated };
    },

    async findEdge(ws, fromId, toId, type) {
      const record = await read('findEdge', (tx) => first(tx, FIND_EDGE, { ws, fromId, toId, type }));
      return record ? edgeOf(record) : null;
    },

    async edgesAmong(ws, memoryIds, query) {
      if (memoryIds.length < 2) return [];
      const records = await read('edgesAmong', (tx) =>
        rows(tx, EDGES_AMONG, { ws, ids: unique(memoryIds), above: query.pruneThreshold, limit: int(query.limit) }),
      );
      return records.map(edgeOf);
    },

    async edgesBetween(ws, a, b, types) {
      const records = await read('edgesBetween', (tx) =>
        rows(tx, EDGES_BETWEEN, { ws, aId: a, bId: b, types: types ? [...types] : null }),
      );
      return records.map(edgeOf);
    },

    async searchMemories(ws, query) {
      const lucene = toLuceneQuery(query.text);
      if (lucene === null) return [];
      const records = await read('searchMemories', (tx) =>
        rows(tx, SEARCH_MEMORIES, {
          ws,
          query: lucene,
          kinds: query.kinds ? [...query.kinds] : null,
          tags: query.tags ? [...query.tags] : null,
          limit: int(query.limit),
        }),
      );
      return records.map((record) => toMemory(record.get('memory')));
    },

    async listWeightEvents(ws, filter) {
      const parameters: Parameters = { ws, limit: int(filter.limit) };
      if (filter.edgeId !== null) parameters.edgeId = filter.edgeId;
      if (filter.memoryId !== null) parameters.memoryId = filter.memoryId;
      if (filter.source !== null) parameters.source = filter.source;
      const text = listWeightEvents({
        edgeId: filter.edgeId !== null,
        memoryId: filter.memoryId !== null,
        source: filter.source !== null,
      });
      const records = await read('listWeightEvents', (tx) => rows(tx, text, parameters));
      return records.map((record) => toWeightEvent(record.get('event'))).sort(byNewest);
    },

    async getEdgeHistories(ws, edgeIds, limit) {
      if (edgeIds.length === 0) return [];
      const records = await read('getEdgeHistories', (tx) =>
        rows(tx, GET_EDGE_HISTORIES, { ws, ids: unique(edgeIds), limit: int(limit) }),
      );
      const byEdge = new Map<string, WeightEventRecord[]>();
      for (const record of records) {
        const edgeId = record.get('edgeId') as string;
        let list = byEdge.get(edgeId);
        if (!list) byEdge.set(edgeId, (list = []));
        list.push(toWeightEvent(record.get('event')));
      }
      return edgeIds.map((id) => [...(byEdge.get(id) ?? [])].sort(byNewest));
    },

    async getWeightEvents(ws, ids) {
      if (ids.length === 0) return [];
      const records = await read('getWeightEvents', (tx) => rows(tx, GET_WEIGHT_EVENTS, { ws, ids: unique(ids) }));
      const byId = new Map(
        records.map((record) => [record.get('eventId') as string, toWeightEvent(record.get('event'))]),
      );
      return ids.map((id) => byId.get(id) ?? null);
    },

    async listEdgesByType(ws, query) {
      if (query.types.length === 0) return [];
      const text = listEdgesByType(query.types, query.after !== null);
      const parameters: Parameters = {
        ws,
        above: query.pruneThreshold,
        atLeast: query.minWeight ?? -1,
        limit: int(query.limit),
      };
      if (query.after) {
        parameters.afterWeight = query.after.weight;
        parameters.afterId = query.after.id;
      }
      const records = await read('listEdgesByType', (tx) => rows(tx, text, parameters));
      return records.map(edgeOf);
    },

    async rankTargetsBySources(ws, query) {
      if (query.types.length === 0) return [];
      const text = rankTargetsBySources(query.types);
      const records = await read('rankTargetsBySources', (tx) =>
        rows(tx, text, {
          ws,
          above: query.pruneThreshold,
          atLeast: query.minWeight ?? -1,
          minSources: int(query.minSources),
          limit: int(query.limit),
        }),
      );
      return records.map(
        (record): SourceRank => ({
          memoryId: record.get('memoryId') as string,
          sources: toNumber(record.get('sources'), 'sources'),
          weight: toNumber(record.get('weight'), 'weight'),
        }),
      );
    },

    async createMemory(ws, memory, now) {
      try {
        const record = await transaction('WRITE', 'createMemory', (tx) =>
          first(tx, CREATE_MEMORY, { ws, ...memoryParameters(memory), now }),
        );
        if (!record) throw new Error('Neo4j store: CREATE returned no row');
        return toMemory(record.get('memory'));
      } catch (error) {
        if (!isConstraintConflict(error)) throw error;
        // Which constraint said no, and was it this very call, committed by an attempt whose reply was lost?
        const [existing] = await store.getMemories(ws, [memory.id]);
        if (existing && existing.id === memory.id) {
          if (JSON.stringify(existing) === JSON.stringify({ ...memory, createdAt: now, updatedAt: now }))
            return existing;
          throw conflict('An item with that id already exists in this workspace');
        }
        throw conflict('That key is already taken in this workspace');
      }
    },

    async updateMemory(ws, id, patch, now) {
      const record = await transaction(
        'WRITE',
        'updateMemory',
        (tx) => first(tx, UPDATE_MEMORY, { ws, id, changes: patchParameters(patch), now }),
        'That key is already taken in this workspace',
      );
      return record ? toMemory(record.get('memory')) : null;
    },

    async deleteMemory(ws, id) {
      const record = await transaction('WRITE', 'deleteMemory', (tx) => first(tx, DELETE_MEMORY, { ws, id }));
      return record ? { edgesRemoved: toNumber(record.get('edgesRemoved'), 'edgesRemoved') } : null;
    },

    async linkEdge(ws, link, now) {
      return transaction(
        'WRITE',
        'linkEdge',
        async (tx) => {
          const ends = { ws, fromId: link.fromId, toId: link.toId };
          const found = await first(tx, LINK_PREPARE, { ...ends, type: link.type });
          if (found?.get('fromFound') !== true) throw notFound(`No memory "${link.fromId}" in this workspace`);
          if (found.get('toFound') !== true) throw notFound(`No memory "${link.toId}" in this workspace`);
          const stored = found.get('edge');
          if (stored === null || stored === undefined) {
            const created = await first(tx, linkCreate(link.type), {
              ...ends,
              type: link.type,
              id: link.id,
              weight: link.weight ?? link.defaultWeight,
              metadata: encodeJson(link.metadata),
              now,
            });
            if (!created) throw notFound('A memory this change refers to does not exist');
            return { edge: edgeOf(created), created: true };
          }
          const existing = toEdge(stored, link.fromId, link.toId);
          // A retry of a create that did commit (its reply was lost) finds its own edge: report it as created.
          if (existing.id === link.id) return { edge: existing, created: true };
          const confirmed = await first(tx, LINK_CONFIRM, {
            ...ends,
            edgeId: existing.id,
            metadata: encodeJson(checkMergedMetadata(mergeMetadata(existing.metadata, link.metadata))),
            now,
          });
          let edge = confirmed ? edgeOf(confirmed) : existing;
          const weightChange = relinkWeightChange(link, existing);
          if (weightChange) {
            const [applied] = await applyChanges(tx, ws, [weightChange], UNBOUNDED, now);
            if (applied?.edge) edge = applied.edge;
          }
          return { edge, created: false };
        },
        'That edge id is already taken in this workspace',
      );
    },

    async unlinkEdges(ws, selector) {
      const [text, parameters] =
        'id' in selector
          ? [unlinkEdge('id'), { ws, id: selector.id }]
          : [unlinkEdge('triple'), { ws, fromId: selector.fromId, toId: selector.toId, type: selector.type }];
      const records = await transaction('WRITE', 'unlinkEdges', (tx) => rows(tx, text, parameters));
      return records.map((record) =>
        toEdge(record.get('props'), record.get('fromId'), record.get('toId'), record.get('relType')),
      );
    },

    async applyWeightChanges(ws, changes, bounds, now) {
      if (changes.length === 0) return [];
      try {
        return await transaction('WRITE', 'applyWeightChanges', (tx) => applyChanges(tx, ws, changes, bounds, now));
      } catch (error) {
        if (!isConstraintConflict(error)) throw error;
        // The event ids are the caller's: if every event exists for these very targets, an earlier
        // attempt committed and only its reply was lost. Answer from what it stored.
        const replay = await replayed(ws, changes);
        if (replay) return replay;
        throw conflict('A weight event with that id already exists in this workspace');
      }
    },

    async importBatch(ws, batch, now) {
      const byType = new Map<string, ImportEdge[]>();
      for (const edge of batch.edges) {
        const group = byType.get(edge.type);
        if (group) group.push(edge);
        else byType.set(edge.type, [edge]);
      }
      return transaction(
        'WRITE',
        'importBatch',
        async (tx) => {
          if (batch.memories.length > 0) {
            await rows(tx, IMPORT_MEMORIES, { ws, memories: batch.memories.map(memoryParameters), now });
          }
          for (const [type, edges] of byType) {
            const record = await first(tx, importEdges(type), {
              ws,
              type,
              edges: edges.map((edge) => ({
                id: edge.id,
                fromId: edge.fromId,
                toId: edge.toId,
                weight: edge.weight,
                metadata: encodeJson(edge.metadata),
              })),
              now,
            });
            if (toNumber(record?.get('upserted') ?? 0, 'upserted') < edges.length) {
              throw notFound('An edge names a memory that is in neither the batch nor the store');
            }
          }
          return { memories: batch.memories.length, edges: batch.edges.length };
        },
        'A key or edge id in the batch is already taken by another item in this workspace',
      );
    },

    async listMemories(ws, page) {
      const records = await read('listMemories', (tx) =>
        rows(tx, LIST_MEMORIES, { ws, afterId: page.afterId ?? '', limit: int(page.limit) }),
      );
      return records.map((record) => toMemory(record.get('memory')));
    },

    async listEdges(ws, page) {
      const records = await read('listEdges', (tx) =>
        rows(tx, LIST_EDGES, { ws, afterId: page.afterId ?? '', limit: int(page.limit) }),
      );
      return records.map(edgeOf);
    },
  };

  async function replayed(ws: string, changes: readonly WeightChangeRequest[]): Promise<AppliedWeightChange[] | null> {
    const events = await store.getWeightEvents(
      ws,
      changes.map((change) => change.eventId),
    );
    const matches = events.every((event, index) => {
      const change = changes[index] as WeightChangeRequest;
      const target = change.target.kind === 'edge' ? event?.edgeId : event?.memoryId;
      return event !== null && target === change.target.id && event.source === change.source;
    });
    if (!matches) return null;
    const edgeIds = changes.filter((change) => change.target.kind === 'edge').map((change) => change.target.id);
    const memoryIds = changes.filter((change) => change.target.kind === 'memory').map((change) => change.target.id);
    const edges = new Map(
      (await store.getEdges(ws, edgeIds)).flatMap((edge) => (edge ? [[edge.id, edge] as const] : [])),
    );
    const memories = new Map(
      (await store.getMemories(ws, memoryIds)).flatMap((memory) => (memory ? [[memory.id, memory] as const] : [])),
    );
    return changes.map((change, index) => {
      const event = events[index] as WeightEventRecord;
      return {
        previousWeight: event.old,
        newWeight: event.new,
        event,
        edge: change.target.kind === 'edge' ? (edges.get(change.target.id) ?? null) : null,
        memory: change.target.kind === 'memory' ? (memories.get(change.target.id) ?? null) : null,
      };
    });
  }

  return store;
}

/** A CONFLICT that a uniqueness constraint raised (not one the store threw itself, like a double revert). */
function isConstraintConflict(error: unknown): error is EngramError {
  return isEngramError(error) && error.code === 'CONFLICT' && classifyNeo4jError(error.cause) === 'conflict';
}
