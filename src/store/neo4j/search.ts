import { int } from 'neo4j-driver';
import type { MemoryRecord } from '../../domain/types.js';
import type { GraphStore, ListingPage, ListingPosition, SearchQuery } from '../port.js';
import { LISTING_SCAN, mergeWalks } from '../shared/listing.js';
import {
  LIST_MEMORIES_BY_KINDS,
  LIST_MEMORIES_BY_KINDS_AFTER,
  LIST_MEMORIES_BY_TAGS,
  LIST_MEMORIES_BY_TAGS_AFTER,
  LISTING_CUT_BY_KINDS,
  LISTING_CUT_BY_KINDS_AFTER,
  LISTING_CUT_BY_TAGS,
  LISTING_CUT_BY_TAGS_AFTER,
  SEARCH_MEMORIES,
  SEARCH_TIERS,
} from './cypher/memories.js';
import type { TransactionLike } from './driver.js';
import { listOrNull } from './parameters.js';
import { toIsoString, toMemory, toStringValue } from './records.js';
import { inWorkspace, RANKED_PER_TIER, toLuceneTiers } from './search-query.js';
import { type Neo4jRunner, rows } from './transactions.js';

const filterParameters = (ws: string, query: SearchQuery) => ({
  ws,
  kinds: listOrNull(query.kinds),
  currentOnly: query.currentOnly,
  pruneThreshold: query.pruneThreshold,
});

/** The rank tiers in one statement (SEARCH_MEMORIES); a memory is answered once, in its best tier. */
async function searchTiers(
  tx: TransactionLike,
  ws: string,
  query: SearchQuery,
  tiers: readonly string[],
): Promise<MemoryRecord[]> {
  if (tiers.length > SEARCH_TIERS) throw new Error(`a search has at most ${SEARCH_TIERS} rank tiers`);
  const records = await rows(tx, SEARCH_MEMORIES, {
    ...filterParameters(ws, query),
    queries: tiers.map((tier) => inWorkspace(ws, tier)),
    ranked: int(RANKED_PER_TIER),
    tags: listOrNull(query.tags),
    limit: int(query.limit),
  });
  return records.map((record) => toMemory(record.get('memory')));
}

/**
 * searchMemories on Neo4j: the same rank tiers as the SQLite store, or a listing by kinds/tags
 * (listNewest) when there are no words.
 */
export function createNeo4jSearch({ read }: Neo4jRunner): Pick<GraphStore, 'searchMemories' | 'listNewest'> {
  /**
   * One page of each kind's or tag's walk (at most LISTING_SCAN index entries each), in one
   * statement; then, only when some walk came back short, where the scan bound cut those walks,
   * in one more. Merged by mergeWalks.
   */
  const listWalks = (ws: string, query: SearchQuery, key: 'tags' | 'kinds', values: string[]) => {
    const after = query.listedAfter;
    const [first, later, cutFirst, cutLater] =
      key === 'tags'
        ? [LIST_MEMORIES_BY_TAGS, LIST_MEMORIES_BY_TAGS_AFTER, LISTING_CUT_BY_TAGS, LISTING_CUT_BY_TAGS_AFTER]
        : [LIST_MEMORIES_BY_KINDS, LIST_MEMORIES_BY_KINDS_AFTER, LISTING_CUT_BY_KINDS, LISTING_CUT_BY_KINDS_AFTER];
    const cursor = after ? { afterCreatedAt: after.createdAt, afterId: after.id } : {};
    return read('listNewest', async (tx): Promise<ListingPage> => {
      const records = await rows(tx, after ? later : first, {
        ...filterParameters(ws, query),
        ...cursor,
        [key]: values,
        limit: int(query.limit),
        scan: int(LISTING_SCAN),
      });
      const passed = new Map<string, MemoryRecord[]>(values.map((value) => [value, []]));
      for (const record of records)
        passed.get(toStringValue(record.get('value'), 'value'))?.push(toMemory(record.get('memory')));
      const short = values.filter((value) => (passed.get(value)?.length ?? 0) < query.limit);
      const cuts = new Map<string, ListingPosition>();
      if (short.length > 0) {
        const cutRecords = await rows(tx, after ? cutLater : cutFirst, {
          ws,
          ...cursor,
          values: short,
          // A later page's cut reads both of the cursor's seeks, each at most $scan entries.
          ...(after ? { scan: int(LISTING_SCAN) } : {}),
          skip: int(LISTING_SCAN - 1),
        });
        for (const record of cutRecords)
          cuts.set(toStringValue(record.get('value'), 'value'), {
            createdAt: toIsoString(record.get('createdAt'), 'createdAt'),
            id: toStringValue(record.get('id'), 'id'),
          });
      }
      return mergeWalks(
        values.map((value) => ({ memories: passed.get(value) ?? [], cut: cuts.get(value) ?? null })),
        query.limit,
      );
    });
  };

  const listNewest = async (ws: string, query: SearchQuery): Promise<ListingPage> => {
    if (query.tags) return listWalks(ws, query, 'tags', [...new Set(query.tags)]);
    if (query.kinds) return listWalks(ws, query, 'kinds', [...new Set(query.kinds)]);
    return { memories: [], resumeAfter: null };
  };

  return {
    async searchMemories(ws, query) {
      const tiers = toLuceneTiers(query.text);
      if (tiers.length > 0) return read('searchMemories', (tx) => searchTiers(tx, ws, query, tiers));
      return (await listNewest(ws, query)).memories;
    },
    listNewest,
  };
}
