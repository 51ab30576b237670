import { int } from 'neo4j-driver';
import type { AdjacentEdge, FrontierStep } from '../../domain/types.js';
import { capInKeyOrder, groupInKeyOrder, inKeyOrder, newestFirst, uniqueKeys } from '../key-order.js';
import type { AdjacencyPageQuery, AdjacencyQuery, GraphStore, SourceRank } from '../port.js';
import { frontierExpansion } from '../shared/frontier-expansion.js';
import { pairedWithLists } from '../shared/memories-with-adjacent.js';
import { EDGES_AMONG, EDGES_BETWEEN, FIND_EDGE, GET_EDGES, LIST_EDGES } from './cypher/edges.js';
import { GET_MEMORIES, LIST_MEMORIES } from './cypher/memories.js';
import { listEdgesByType, rankTargetsBySources } from './cypher/research-views.js';
import {
  adjacentEdges,
  countAdjacent,
  expandFrontier,
  expandFrontierCapped,
  getMemoriesWithAdjacent,
} from './cypher/walks.js';
import { GET_EDGE_HISTORIES, GET_WEIGHT_EVENTS, listWeightEvents } from './cypher/weights.js';
import type { Parameters, RecordLike } from './driver.js';
import { listOrNull } from './parameters.js';
import { edgeOf, toEdge, toMemory, toNumber, toWeightEvent } from './records.js';
import { first, type Neo4jRunner, rows } from './transactions.js';

export type Neo4jReads = Pick<
  GraphStore,
  | 'getMemories'
  | 'getEdges'
  | 'getAdjacent'
  | 'getAdjacentPage'
  | 'getMemoriesWithAdjacent'
  | 'countAdjacent'
  | 'expandFrontier'
  | 'findEdge'
  | 'edgesAmong'
  | 'edgesBetween'
  | 'listWeightEvents'
  | 'getEdgeHistories'
  | 'getWeightEvents'
  | 'listEdgesByType'
  | 'rankTargetsBySources'
  | 'listMemories'
  | 'listEdges'
>;

/** A per-memory limit of "no limit": collect()[..n] needs an integer. */
const UNLIMITED = 2_147_483_647;

const memoryOf = (record: RecordLike) => toMemory(record.get('memory'));
const eventOf = (record: RecordLike) => toWeightEvent(record.get('event'));

/** One adjacency entry, seen from its anchor: the stored direction decides which end is `from`. */
function adjacentOf(anchor: string, entry: { edge: unknown; neighbor: unknown; outgoing: unknown }): AdjacentEdge {
  const neighbor = toMemory(entry.neighbor);
  const outgoing = entry.outgoing === true;
  return {
    direction: outgoing ? 'OUTGOING' : 'INCOMING',
    edge: toEdge(entry.edge, outgoing ? anchor : neighbor.id, outgoing ? neighbor.id : anchor),
    neighbor,
  };
}

const adjacentRowOf = (record: RecordLike): AdjacentEdge =>
  adjacentOf(record.get('anchorId') as string, {
    edge: record.get('edge'),
    neighbor: record.get('neighbor'),
    outgoing: record.get('outgoing'),
  });

/**
 * A memory with up to this many relationships per row asked for is read by expanding all of them,
 * a larger one from the EdgeRef page indexes (cypher/walks.ts): an expand costs about 2 db hits per
 * relationship, the indexed read about 30 per row it returns, measured under PROFILE.
 */
const EXPAND_PER_ROW = 15;

/**
 * The parameters of adjacentEdges and getMemoriesWithAdjacent. EdgeRefs keep the weight negated
 * (cypher/walks.ts), so every weight bound flips; `types` is sent only to the typed variants.
 */
export function adjacencyParameters(
  query: AdjacencyPageQuery | AdjacencyQuery,
  limit: number,
  expandPerRow = EXPAND_PER_ROW,
): Parameters {
  const parameters: Parameters = {
    below: -(query.includePruned ? -1 : query.pruneThreshold),
    atMost: -(query.minWeight ?? -1),
    limit: int(limit),
    expandUpTo: int(Math.min(expandPerRow * limit, UNLIMITED)),
  };
  if (query.types) parameters.types = uniqueKeys(query.types);
  if ('after' in query && query.after) {
    parameters.afterRank = -query.after.weight;
    parameters.afterId = query.after.edgeId;
  }
  return parameters;
}

/** No memory needs more than the call's cap; the cap itself is applied in key order afterwards. */
const perMemory = (query: AdjacencyQuery) => Math.min(query.limitPerMemory ?? UNLIMITED, query.maxRows ?? UNLIMITED);

export function createNeo4jReads({ read }: Neo4jRunner, expandPerRow = EXPAND_PER_ROW): Neo4jReads {
  return {
    async getMemories(ws, refs) {
      if (refs.length === 0) return [];
      const records = await read('getMemories', (tx) => rows(tx, GET_MEMORIES, { ws, refs: uniqueKeys(refs) }));
      return inKeyOrder(refs, new Map(records.map((record) => [record.get('ref') as string, memoryOf(record)])), null);
    },

    async getEdges(ws, ids) {
      if (ids.length === 0) return [];
      const records = await read('getEdges', (tx) => rows(tx, GET_EDGES, { ws, ids: uniqueKeys(ids) }));
      return inKeyOrder(ids, new Map(records.map((record) => [record.get('edgeId') as string, edgeOf(record)])), null);
    },

    async getAdjacent(ws, memoryIds, query) {
      if (memoryIds.length === 0) return [];
      const records = await read('getAdjacent', (tx) =>
        rows(tx, adjacentEdges(query.direction, false, query.types !== null), {
          ws,
          ids: uniqueKeys(memoryIds),
          ...adjacencyParameters(query, perMemory(query), expandPerRow),
        }),
      );
      const lists = groupInKeyOrder(memoryIds, records, (record) => record.get('anchorId') as string, adjacentRowOf);
      return capInKeyOrder(lists, query.maxRows);
    },

    async getAdjacentPage(ws, memoryIds, query) {
      if (memoryIds.length === 0) return [];
      const records = await read('getAdjacentPage', (tx) =>
        rows(tx, adjacentEdges(query.direction, query.after !== null, query.types !== null), {
          ws,
          ids: uniqueKeys(memoryIds),
          ...adjacencyParameters(query, query.limit, expandPerRow),
        }),
      );
      return groupInKeyOrder(memoryIds, records, (record) => record.get('anchorId') as string, adjacentRowOf);
    },

    async getMemoriesWithAdjacent(ws, refs, query) {
      if (refs.length === 0) return [];
      const records = await read('getMemoriesWithAdjacent', (tx) =>
        rows(tx, getMemoriesWithAdjacent(query.direction, query.types !== null), {
          ws,
          refs: uniqueKeys(refs),
          ...adjacencyParameters(query, perMemory(query), expandPerRow),
        }),
      );
      const byRef = new Map(
        records.map((record) => {
          const memory = memoryOf(record);
          const entries = record.get('adjacent') as { edge: unknown; neighbor: unknown; outgoing: unknown }[];
          return [
            record.get('ref') as string,
            { memory, adjacent: entries.map((entry) => adjacentOf(memory.id, entry)) },
          ];
        }),
      );
      const found = inKeyOrder(refs, byRef, null);
      // maxRows is filled in reference order over the memories found, as getAdjacent fills it.
      const present = found.filter((entry) => entry !== null);
      return pairedWithLists(
        found.map((entry) => entry?.memory ?? null),
        capInKeyOrder(
          present.map((entry) => entry.adjacent),
          query.maxRows,
        ),
      );
    },

    async countAdjacent(ws, memoryIds, query) {
      if (memoryIds.length === 0) return [];
      const records = await read('countAdjacent', (tx) =>
        rows(tx, countAdjacent(query.direction), {
          ws,
          ids: uniqueKeys(memoryIds),
          types: listOrNull(query.types),
          above: query.includePruned ? -1 : query.pruneThreshold,
        }),
      );
      const counts = new Map(
        records.map((record) => [record.get('anchorId') as string, toNumber(record.get('degree'), 'degree')]),
      );
      return inKeyOrder(memoryIds, counts, 0);
    },

    async expandFrontier(ws, memoryIds, query) {
      if (memoryIds.length === 0) return { steps: [], truncated: false };
      const budget = Math.max(0, query.budget);
      const parameters = {
        ws,
        ids: uniqueKeys(memoryIds),
        types: listOrNull(query.types),
        above: query.pruneThreshold,
        take: int(budget + 1),
      };
      if (query.maxTotalWeight && query.maxTotalWeight.size > 0) {
        const caps = Object.fromEntries(query.maxTotalWeight);
        const records = await read('expandFrontier', (tx) =>
          rows(tx, expandFrontierCapped(query.direction), { ...parameters, caps }),
        );
        let examined = 0;
        const steps: FrontierStep[] = [];
        for (const record of records) {
          examined += toNumber(record.get('read'), 'read');
          const from = record.get('fromId') as string;
          const toIds = record.get('toIds') as string[];
          const edgeIds = record.get('edgeIds') as string[];
          const weights = record.get('weights') as unknown[];
          for (let index = 0; index < toIds.length; index++) {
            steps.push({
              from,
              to: toIds[index] as string,
              edgeId: edgeIds[index] as string,
              weight: toNumber(weights[index], 'weight'),
            });
          }
        }
        const truncated = examined > budget;
        if (steps.length > budget) steps.length = budget;
        return frontierExpansion(steps, truncated, examined);
      }
      const records = await read('expandFrontier', (tx) => rows(tx, expandFrontier(query.direction), parameters));
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
        rows(tx, EDGES_AMONG, { ws, ids: uniqueKeys(memoryIds), above: query.pruneThreshold, limit: int(query.limit) }),
      );
      return records.map(edgeOf);
    },

    async edgesBetween(ws, a, b, types) {
      const records = await read('edgesBetween', (tx) =>
        rows(tx, EDGES_BETWEEN, { ws, aId: a, bId: b, types: listOrNull(types) }),
      );
      return records.map(edgeOf);
    },

    async listWeightEvents(ws, filter) {
      const parameters: Parameters = { ws, limit: int(filter.limit) };
      if (filter.edgeId !== null) parameters.edgeId = filter.edgeId;
      if (filter.memoryId !== null) parameters.memoryId = filter.memoryId;
      if (filter.source !== null) parameters.source = filter.source;
      if (filter.after) {
        parameters.afterAt = filter.after.at;
        parameters.afterId = filter.after.id;
      }
      const text = listWeightEvents({
        edgeId: filter.edgeId !== null,
        memoryId: filter.memoryId !== null,
        source: filter.source !== null,
        after: Boolean(filter.after),
      });
      const records = await read('listWeightEvents', (tx) => rows(tx, text, parameters));
      return records.map(eventOf).sort(newestFirst);
    },

    async getEdgeHistories(ws, edgeIds, limit) {
      if (edgeIds.length === 0) return [];
      const records = await read('getEdgeHistories', (tx) =>
        rows(tx, GET_EDGE_HISTORIES, { ws, ids: uniqueKeys(edgeIds), limit: int(limit) }),
      );
      const histories = groupInKeyOrder(edgeIds, records, (record) => record.get('edgeId') as string, eventOf);
      return histories.map((history) => history.sort(newestFirst));
    },

    async getWeightEvents(ws, ids) {
      if (ids.length === 0) return [];
      const records = await read('getWeightEvents', (tx) => rows(tx, GET_WEIGHT_EVENTS, { ws, ids: uniqueKeys(ids) }));
      return inKeyOrder(
        ids,
        new Map(records.map((record) => [record.get('eventId') as string, eventOf(record)])),
        null,
      );
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
      const after = query.after ?? null;
      const text = rankTargetsBySources(query.types, after !== null);
      const parameters: Parameters = {
        ws,
        above: query.pruneThreshold,
        atLeast: query.minWeight ?? -1,
        minSources: int(query.minSources),
        limit: int(query.limit),
      };
      if (after) {
        parameters.afterSources = int(after.sources);
        parameters.afterWeight = after.weight;
        parameters.afterId = after.memoryId;
      }
      const records = await read('rankTargetsBySources', (tx) => rows(tx, text, parameters));
      return records.map(
        (record): SourceRank => ({
          memoryId: record.get('memoryId') as string,
          sources: toNumber(record.get('sources'), 'sources'),
          weight: toNumber(record.get('weight'), 'weight'),
        }),
      );
    },

    async listMemories(ws, page) {
      const records = await read('listMemories', (tx) =>
        rows(tx, LIST_MEMORIES, { ws, afterId: page.afterId ?? '', limit: int(page.limit) }),
      );
      return records.map(memoryOf);
    },

    async listEdges(ws, page) {
      const records = await read('listEdges', (tx) =>
        rows(tx, LIST_EDGES, { ws, afterId: page.afterId ?? '', limit: int(page.limit) }),
      );
      return records.map(edgeOf);
    },
  };
}
