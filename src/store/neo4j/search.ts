import { int } from 'neo4j-driver';
import type { MemoryRecord } from '../../domain/types.js';
import { compareIds } from '../key-order.js';
import type { GraphStore, SearchQuery } from '../port.js';
import {
  LIST_MEMORIES_BY_KINDS,
  LIST_MEMORIES_BY_KINDS_AFTER,
  LIST_MEMORIES_BY_TAGS,
  LIST_MEMORIES_BY_TAGS_AFTER,
  SEARCH_MEMORIES,
} from './cypher/memories.js';
import type { TransactionLike } from './driver.js';
import { listOrNull } from './parameters.js';
import { toMemory } from './records.js';
import { inWorkspace, RANKED_PER_TIER, toLuceneTiers } from './search-query.js';
import { type Neo4jRunner, rows } from './transactions.js';

const filterParameters = (ws: string, query: SearchQuery) => ({
  ws,
  kinds: listOrNull(query.kinds),
  currentOnly: query.currentOnly,
  pruneThreshold: query.pruneThreshold,
});

/** Each tier fills what the tiers before it left of the limit; a memory is answered once, in its best tier. */
async function searchTiers(
  tx: TransactionLike,
  ws: string,
  query: SearchQuery,
  tiers: readonly string[],
): Promise<MemoryRecord[]> {
  const found: MemoryRecord[] = [];
  for (const tier of tiers) {
    if (found.length >= query.limit) break;
    const records = await rows(tx, SEARCH_MEMORIES, {
      ...filterParameters(ws, query),
      query: inWorkspace(ws, tier),
      ranked: int(RANKED_PER_TIER),
      tags: listOrNull(query.tags),
      seen: found.map((memory) => memory.id),
      limit: int(query.limit - found.length),
    });
    found.push(...records.map((record) => toMemory(record.get('memory'))));
  }
  return found;
}

/** Each memory once, newest first, equal times by id descending (the tag index's order). */
function newestOnce(memories: readonly MemoryRecord[]): MemoryRecord[] {
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  return [...byId.values()].sort((a, b) => compareIds(b.createdAt, a.createdAt) || compareIds(b.id, a.id));
}

/** searchMemories on Neo4j: the same rank tiers as the SQLite store, or a listing by kinds/tags when there are no words. */
export function createNeo4jSearch({ read }: Neo4jRunner): Pick<GraphStore, 'searchMemories'> {
  return {
    async searchMemories(ws, query) {
      const tiers = toLuceneTiers(query.text);
      if (tiers.length > 0) return read('searchMemories', (tx) => searchTiers(tx, ws, query, tiers));
      /** One listing statement, or its later-page twin from the cursor, with `values` under `key`. */
      const list = async (op: string, first: string, later: string, key: 'tags' | 'kinds', values: string[]) => {
        const after = query.listedAfter;
        const parameters = { ...filterParameters(ws, query), [key]: values, limit: int(query.limit) };
        const records = await read(op, (tx) =>
          after
            ? rows(tx, later, { ...parameters, afterCreatedAt: after.createdAt, afterId: after.id })
            : rows(tx, first, parameters),
        );
        return records.map((record) => toMemory(record.get('memory')));
      };
      if (query.tags) {
        const tags = [...new Set(query.tags)];
        const each = await list('listMemoriesByTags', LIST_MEMORIES_BY_TAGS, LIST_MEMORIES_BY_TAGS_AFTER, 'tags', tags);
        return newestOnce(each).slice(0, query.limit);
      }
      if (query.kinds) {
        const kinds = [...new Set(query.kinds)];
        return list('listMemoriesByKinds', LIST_MEMORIES_BY_KINDS, LIST_MEMORIES_BY_KINDS_AFTER, 'kinds', kinds);
      }
      return [];
    },
  };
}
