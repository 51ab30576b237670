import { SUPERSEDES } from '../../domain/evidence.js';
import { searchTiers } from '../../domain/search-words.js';
import type { GraphStore, ListingPage, ListingPosition, SearchQuery } from '../port.js';
import { LISTING_SCAN, mergeWalks } from '../shared/listing.js';
import { searchIndexRows } from './fts5-records.js';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './records.js';
import { BM25_WEIGHTS, COMMON_WORD_HOLDERS, commonWords, ftsTier, inScope, toFtsTerms } from './search-query.js';
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

/**
 * One of a listing's two index walks: where its entries are (ordered by created_at, then `id`),
 * what of each entry the walk carries, how an entry finds its memory, and the filters left to
 * check on it (its own key is the walk).
 */
interface IndexWalk {
  key: 'kind' | 'tag';
  from: string;
  id: string;
  columns: string;
  join: string;
  otherFilters: (query: SearchQuery) => SearchQuery;
}

/** Along the (workspace, tag, created_at, memory id) key of memory_tags. */
const TAG_WALK: IndexWalk = {
  key: 'tag',
  from: 'memory_tags WHERE workspace = @ws AND tag = @tag',
  id: 'memory_id',
  columns: 'created_at, memory_id',
  join: 'm.workspace = @ws AND m.id = w.memory_id',
  otherFilters: (query) => ({ ...query, tags: null }),
};

/** Along the (workspace, kind, created_at, id) index of memories. */
const KIND_WALK: IndexWalk = {
  key: 'kind',
  from: 'memories WHERE workspace = @ws AND kind = @kind',
  id: 'id',
  columns: 'rid, created_at, id',
  join: 'm.rid = w.rid',
  otherFilters: (query) => ({ ...query, kinds: null }),
};

/** Words whose holder counts a search store remembers (a few hundred KB at most). */
const KNOWN_WORDS = 4096;

/**
 * Holders are counted this far past COMMON_WORD_HOLDERS (a tenth more postings read), so a common
 * word stays certainly common through 500 text changes before it is counted again.
 */
const COUNT_CAP = COMMON_WORD_HOLDERS + 501;

/** searchMemories on the embedded store: FTS5 rank tiers, or a listing by kinds/tags when there are no words. */
export function createSqliteSearch(ctx: StoreContext): Pick<GraphStore, 'searchMemories' | 'listNewest'> {
  const { db, sql } = ctx;

  const longerTerm = sql('SELECT 1 FROM search_vocabulary WHERE term >= @after AND term < @beyond LIMIT 1');

  /**
   * Whether the last word must stay a prefix: only when a longer word of the index starts with it.
   * Otherwise the whole word matches the same memories, ranked the same (one term either way), and
   * FTS5 reads a whole word's postings lazily, stopping at a limit, where it merges all of a
   * prefix's postings first (on the bench graph, 2.5 ms for a word held by a quarter of 100,000
   * memories, 0.9 ms as a whole word). The look-up starts just past the word and stops at the
   * first occurrence of a longer one, so it reads none of the word's own postings and at most one
   * of another's (0.04-0.05 ms). Words with letters outside ASCII keep their prefix: the index
   * folds their case and diacritics in its own way.
   */
  const needsPrefix = (typed: string): boolean => {
    if (!/^[A-Za-z0-9]+$/.test(typed)) return true;
    const word = typed.toLowerCase();
    const beyond = `${word.slice(0, -1)}${String.fromCharCode(word.charCodeAt(word.length - 1) + 1)}`;
    return longerTerm.get({ after: `${word}\u0001`, beyond }) !== undefined;
  };

  const held = sql(
    `SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH @match LIMIT @over)`,
  );
  // A common word's count reads COUNT_CAP postings (about 0.9 ms), and common words are the ones
  // texts repeat, so counts are kept (for at most KNOWN_WORDS words). text_generation moves by one
  // for each memory added, removed or rewritten, on any connection, and each such change moves a
  // word's holders by at most one: a count taken `drift` changes ago is off by at most `drift`, and
  // is counted again only when that could change what the search does with the word. Forgetting
  // every count on any change made a search after a write count all its words again
  // (bench/search-bench.ts: the most common word 13.4-13.9 ms p50 then, 6.2-8.0 now).
  const known = new Map<string, { count: number; at: number }>();
  let generation = -1;
  let indexedRows = 0;
  /** The holders of a term in the whole index, now: at least `low`, at most `high`. */
  const holderBounds = (match: string, again: boolean): { low: number; high: number } => {
    let entry = known.get(match);
    if (entry === undefined || again) {
      entry = { count: (held.get({ match, over: COUNT_CAP }) as { n: number }).n, at: generation };
      if (known.size >= KNOWN_WORDS) known.clear();
      known.set(match, entry);
    }
    const drift = generation - entry.at;
    return {
      low: entry.count - drift,
      high: entry.count >= COUNT_CAP ? Number.POSITIVE_INFINITY : entry.count + drift,
    };
  };
  /** Whether a term's holders reach a threshold (`reaches` grows with them), counting only when the bounds straddle it. */
  const holdersReach = (match: string, reaches: (holders: number) => boolean): boolean => {
    const { low, high } = holderBounds(match, false);
    if (reaches(low) === reaches(high)) return reaches(low);
    return reaches(holderBounds(match, true).low);
  };
  const isCommon = (match: string): boolean => holdersReach(match, (n) => n > COMMON_WORD_HOLDERS);
  /**
   * bm25()'s idf is log((N - n + 0.5) / (n + 0.5)), floored at 1e-6: a term held by half of the
   * index's rows or more weighs nothing in the rank. (A count stops at COUNT_CAP, where the term is
   * common anyway.)
   */
  const weighsNothing = (match: string): boolean => holdersReach(match, (n) => n * 2 >= indexedRows);
  const readGeneration = (): void => {
    const now = ctx.textGeneration();
    if (now === generation) return;
    // The counter only grows; a smaller one is another file's (restored from a copy): start over.
    if (now < generation) known.clear();
    generation = now;
    indexedRows = searchIndexRows(db);
  };

  /**
   * Each tier fills what the tiers before it left of the limit; a memory is answered once, in its
   * best tier. bm25() counts every memory that holds each word of the query, in every workspace,
   * and scores every match, so a tier is ranked by it only when none of its words is common
   * (COMMON_WORD_HOLDERS). A tier with a common word is listed most recently stored first (rowid
   * order) instead, within the workspace (the index's `scope` token), reading at most
   * COMMON_WORD_HOLDERS matches. The any-word tier of a text with both kinds of word goes through
   * its rare words first, ranked: BM25 gives a common word little weight, so the best any-word
   * matches hold a rare word.
   */
  const searchWords = (ws: string, query: SearchQuery, terms: readonly string[]): MemoryRow[] => {
    readGeneration();
    const words = commonWords(terms, isCommon, weighsNothing);
    const found: MemoryRow[] = [];
    // What both kinds of tier keep of their matches: this workspace's, not found by an earlier tier.
    const kept = `m.workspace = @ws
         AND m.id NOT IN (SELECT value FROM json_each(@seen))
         ${filters(query)}`;
    const rankedTier = sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)}
       FROM memories_fts f JOIN memories m ON m.rid = f.rowid
       WHERE memories_fts MATCH @match AND ${kept}
       ORDER BY bm25(memories_fts, ${BM25_WEIGHTS}), m.weight DESC, m.id
       LIMIT @limit`,
    );
    // The newest COMMON_WORD_HOLDERS matches in the index's own order (FTS5 reads rowids backwards),
    // which SQLite keeps through the join: it stops at the limit, and filters that reject most
    // matches cannot make it read further.
    const newestTier = sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)}
       FROM (SELECT rowid AS rid FROM memories_fts WHERE memories_fts MATCH @match
             ORDER BY rowid DESC LIMIT ${COMMON_WORD_HOLDERS}) f
       CROSS JOIN memories m ON m.rid = f.rid
       WHERE ${kept}
       ORDER BY f.rid DESC
       LIMIT @limit`,
    );
    const fill = (match: string, ranked: boolean): void => {
      if (found.length >= query.limit) return;
      const shared = {
        ...parameters(ws, query),
        seen: asJson(found.map((row) => row.id)),
        limit: query.limit - found.length,
      };
      const rows = ranked
        ? rankedTier.all({ ...shared, match })
        : newestTier.all({ ...shared, match: inScope(ws, match) });
      found.push(...(rows as MemoryRow[]));
    };
    for (const tier of searchTiers(terms.length)) {
      if (found.length >= query.limit) break;
      if (tier === 'any') {
        // The rare words go first, ranked, when a common word makes the whole tier newest first.
        // Otherwise bm25() would score every match of every word, and the matches of only
        // weightless words (most of a small workspace for a question's "the" and "what") rank
        // after all others at about 0: the weighed words go first, the whole tier fills the rest.
        const first = words.anyCommon() ? words.rare() : words.weighed();
        if (first.length > 0 && first.length < terms.length) fill(ftsTier('any', first), true);
      }
      fill(ftsTier(tier, terms), !words.anyCommon());
    }
    return found;
  };

  /**
   * One walk of an index per distinct value of the walk's key (a kind or a tag), newest first: at
   * most LISTING_SCAN entries of the index (read in a co-routine, then the filters checked on each,
   * stopping at the limit), and for a walk that came back short, the entry where the scan bound
   * cut it (the LISTING_SCAN-th, if there is one). Merged by mergeWalks.
   */
  const listWalks = (walk: IndexWalk, ws: string, query: SearchQuery, values: readonly string[]): ListingPage => {
    const after = query.listedAfter ? `AND (created_at, ${walk.id}) < (@afterCreatedAt, @afterId)` : '';
    const entries = `FROM ${walk.from} ${after} ORDER BY created_at DESC, ${walk.id} DESC`;
    const passing = sql(
      `SELECT ${prefixed('m', MEMORY_COLUMNS)}
       FROM (SELECT ${walk.columns} ${entries} LIMIT @scan) w
       CROSS JOIN memories m ON ${walk.join}
       WHERE 1 ${filters(walk.otherFilters(query))}
       ORDER BY w.created_at DESC, w.${walk.id} DESC
       LIMIT @limit`,
    );
    const cutAt = sql(`SELECT created_at AS createdAt, ${walk.id} AS id ${entries} LIMIT 1 OFFSET @scan - 1`);
    const walks = [...new Set(values)].map((value) => {
      const bound = { ...parameters(ws, query), [walk.key]: value, limit: query.limit, scan: LISTING_SCAN };
      const rows = passing.all(bound) as MemoryRow[];
      const cut = rows.length < query.limit ? (cutAt.get(bound) as ListingPosition | undefined) : undefined;
      return { memories: rows.map(toMemory), cut: cut ?? null };
    });
    return mergeWalks(walks, query.limit);
  };

  const listNewest = (ws: string, query: SearchQuery): ListingPage => {
    if (query.tags) return listWalks(TAG_WALK, ws, query, query.tags);
    if (query.kinds) return listWalks(KIND_WALK, ws, query, query.kinds);
    return { memories: [], resumeAfter: null };
  };

  return {
    async searchMemories(ws, query) {
      // One read transaction: the term list and the tiers (or the walks) see the same snapshot.
      return db.transaction(() => {
        const terms = toFtsTerms(query.text, needsPrefix);
        return terms.length > 0 ? searchWords(ws, query, terms).map(toMemory) : listNewest(ws, query).memories;
      })();
    },

    async listNewest(ws, query) {
      return db.transaction(() => listNewest(ws, query))();
    },
  };
}
