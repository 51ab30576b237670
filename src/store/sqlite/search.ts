import { SUPERSEDES } from '../../domain/evidence.js';
import { compareIds } from '../key-order.js';
import type { GraphStore, SearchQuery } from '../port.js';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './records.js';
import { BM25_WEIGHTS, toFtsTagQuery, toFtsTiers } from './search-query.js';
import { asJson, prefixed } from './sql-text.js';
import type { StoreContext } from './store-context.js';

/**
 * The filters every search and listing shares, as fixed SQL text chosen by which filters are set
 * (values are always parameters). A superseded memory is one an unpruned SUPERSEDES edge points at:
 * one seek of the edges_in index per candidate.
 */
function filters(query: SearchQuery): string {
  return [
    query.kinds ? 'AND m.kind IN (SELECT value FROM json_each(@kinds))' : '',
    query.tags
      ? 'AND EXISTS (SELECT 1 FROM json_each(m.tags) t WHERE t.value IN (SELECT value FROM json_each(@tags)))'
      : '',
    query.listedAfter ? 'AND (m.created_at, m.id) < (@afterCreatedAt, @afterId)' : '',
    query.currentOnly
      ? `AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.workspace = m.workspace AND e.to_id = m.id
           AND e.type = @supersedes AND e.weight > @pruneThreshold)`
      : '',
  ].join('\n');
}

function parameters(ws: string, query: SearchQuery) {
  return {
    ws,
    kinds: query.kinds ? asJson(query.kinds) : undefined,
    tags: query.tags ? asJson(query.tags) : undefined,
    supersedes: query.currentOnly ? SUPERSEDES : undefined,
    pruneThreshold: query.currentOnly ? query.pruneThreshold : undefined,
    afterCreatedAt: query.listedAfter?.createdAt,
    afterId: query.listedAfter?.id,
  };
}

/** Newest first; equal times by id descending (ids are time-ordered), the order of the memories_kind_created index. */
const newestFirst = (a: MemoryRow, b: MemoryRow): number =>
  compareIds(b.created_at, a.created_at) || compareIds(b.id, a.id);

/** searchMemories on the embedded store: FTS5 rank tiers, or a listing by kinds/tags when there are no words. */
export function createSqliteSearch(ctx: StoreContext): Pick<GraphStore, 'searchMemories'> {
  const { db, sql } = ctx;

  /** Each tier fills what the tiers before it left of the limit; a memory is answered once, in its best tier. */
  const searchTiers = (ws: string, query: SearchQuery, tiers: readonly string[]): MemoryRow[] => {
    const found: MemoryRow[] = [];
    const statement = sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)}
       FROM memories_fts f JOIN memories m ON m.rid = f.rowid
       WHERE memories_fts MATCH @match AND m.workspace = @ws
         AND m.id NOT IN (SELECT value FROM json_each(@seen))
         ${filters({ ...query, listedAfter: null })}
       ORDER BY bm25(memories_fts, ${BM25_WEIGHTS}), m.weight DESC, m.id
       LIMIT @limit`,
    );
    for (const match of tiers) {
      if (found.length >= query.limit) break;
      const rows = statement.all({
        ...parameters(ws, query),
        match,
        seen: asJson(found.map((row) => row.id)),
        limit: query.limit - found.length,
      }) as MemoryRow[];
      found.push(...rows);
    }
    return found;
  };

  /**
   * Tags are found through the full-text index (the tags column), then checked exactly: the
   * cost is the tag's postings, as for a search word, not a scan of the workspace.
   */
  const listByTags = (ws: string, query: SearchQuery, tags: readonly string[]): MemoryRow[] => {
    const match = toFtsTagQuery(tags);
    if (match === null) return [];
    return sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)}
       FROM memories_fts f JOIN memories m ON m.rid = f.rowid
       WHERE memories_fts MATCH @match AND m.workspace = @ws
         ${filters(query)}
       ORDER BY m.created_at DESC, m.id DESC
       LIMIT @limit`,
    ).all({ ...parameters(ws, query), match, limit: query.limit }) as MemoryRow[];
  };

  /** One walk of the (workspace, kind, created_at, id) index per kind, newest first, then merged. */
  const listByKinds = (ws: string, query: SearchQuery, kinds: readonly string[]): MemoryRow[] => {
    const statement = sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)} FROM memories m
       WHERE m.workspace = @ws AND m.kind = @kind
         ${filters({ ...query, kinds: null })}
       ORDER BY m.created_at DESC, m.id DESC
       LIMIT @limit`,
    );
    const rows = [...new Set(kinds)].flatMap(
      (kind) => statement.all({ ...parameters(ws, query), kind, limit: query.limit }) as MemoryRow[],
    );
    return rows.sort(newestFirst).slice(0, query.limit);
  };

  return {
    async searchMemories(ws, query) {
      const tiers = toFtsTiers(query.text);
      // One read transaction: the tiers (or kinds) see the same snapshot.
      const rows = db.transaction((): MemoryRow[] => {
        if (tiers.length > 0) return searchTiers(ws, query, tiers);
        if (query.tags) return listByTags(ws, query, query.tags);
        if (query.kinds) return listByKinds(ws, query, query.kinds);
        return [];
      })();
      return rows.map(toMemory);
    },
  };
}
