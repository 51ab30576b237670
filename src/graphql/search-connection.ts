import { badInput } from '../domain/errors.js';
import { newId, nowIso } from '../domain/ids.js';
import { searchWords } from '../domain/search-words.js';
import type { MemoryRecord } from '../domain/types.js';
import type { SearchQuery } from '../store/port.js';
import { pageArgs, searchFilterArgs, searchFilterRule } from './args.js';
import { builder } from './builder.js';
import { keysetPage, MemoryConnectionRef, type Page, type Position } from './connections.js';
import type { EngramContext } from './context.js';

/*
 * searchMemories a page at a time. A listing (no words) is ordered by what each memory carries,
 * (createdAt, id), so it pages by keyset like every other list. A text search is not: relevance
 * (bm25 on SQLite, Lucene on Neo4j) depends on the words of every memory of the workspace, so any
 * write moves the scores of memories it never touched and a score in a cursor would point nowhere.
 * So a text search ranks once, on its first page, and saves that order (its ids, best first) for
 * the pages after it; a cursor holds the saved order's id and the item's rank in it, the sort key
 * of a list that never changes. Saved orders expire, like recall records.
 */

/** Matches a text search pages through: the ranking reads at most this many, once. */
const SEARCH_PAGES_CAP = 1000;
/** How long the pages of a text search can be followed. */
const SEARCH_PAGES_TTL_SECONDS = 15 * 60;
/** The saved-order id of a search with at most one match: nothing follows it, nothing is saved. */
const COMPLETE = '';

/** A match and its place: the saved order it belongs to and its rank there. */
interface Ranked {
  memory: MemoryRecord;
  order: string;
  rank: number;
}

function baseQuery(ctx: EngramContext, args: SearchArgs): Omit<SearchQuery, 'limit'> {
  return {
    text: args.query,
    kinds: args.kinds ?? null,
    tags: args.tags ?? null,
    currentOnly: args.currentOnly,
    pruneThreshold: ctx.policy.pruneThreshold,
  };
}

interface SearchArgs {
  query: string;
  kinds?: string[] | null | undefined;
  tags?: string[] | null | undefined;
  currentOnly: boolean;
  first: number;
  after?: string | null | undefined;
}

async function firstRankedPage(ctx: EngramContext, args: SearchArgs, limit: number): Promise<Ranked[]> {
  const found = await ctx.store.searchMemories(ctx.workspace, { ...baseQuery(ctx, args), limit: SEARCH_PAGES_CAP });
  // Any item's cursor may be passed as `after` (an MCP answer cut for size passes a middle one), so
  // the order is saved whenever a cursor could lead to another item.
  if (found.length <= 1) return found.map((memory, rank) => ({ memory, order: COMPLETE, rank }));
  const now = nowIso();
  const id = newId();
  await ctx.store.saveSearchPages(
    ctx.workspace,
    {
      id,
      memoryIds: found.map((memory) => memory.id),
      createdAt: now,
      expiresAt: new Date(Date.parse(now) + SEARCH_PAGES_TTL_SECONDS * 1000).toISOString(),
    },
    now,
  );
  return found.slice(0, limit).map((memory, rank) => ({ memory, order: id, rank }));
}

/** The memories after `rank` in a saved order, skipping deleted ones, at most `limit`. */
async function laterRankedPage(ctx: EngramContext, order: string, rank: number, limit: number): Promise<Ranked[]> {
  if (order === COMPLETE) return [];
  const ids = await ctx.store.getSearchPages(ctx.workspace, order, nowIso());
  if (ids === null)
    throw badInput(
      'after',
      `the pages of this search expired (they are kept ${SEARCH_PAGES_TTL_SECONDS / 60} minutes); search again without after`,
    );
  const page: Ranked[] = [];
  // Memories deleted since the ranking leave holes; each round reads only what the page still needs.
  for (let next = rank + 1; next < ids.length && page.length < limit; ) {
    const batch = ids.slice(next, next + limit - page.length);
    const memories = await ctx.loaders.memory.loadMany(batch);
    memories.forEach((memory, at) => {
      if (memory && !(memory instanceof Error)) page.push({ memory, order, rank: next + at });
    });
    next += batch.length;
  }
  return page;
}

function listingPosition([createdAt, id]: Position): { createdAt: string; id: string } {
  if (typeof createdAt !== 'string' || typeof id !== 'string')
    throw badInput('after', 'not a cursor this server gave out');
  return { createdAt, id };
}

async function searchPage(ctx: EngramContext, args: SearchArgs): Promise<Page<MemoryRecord>> {
  const scope = {
    query: args.query,
    kinds: args.kinds ?? null,
    tags: args.tags ?? null,
    currentOnly: args.currentOnly,
  };
  const field = 'Query.searchMemoriesConnection';
  if (searchWords(args.query).length === 0) {
    return keysetPage<MemoryRecord>(ctx, args, {
      field,
      scope,
      read: async (after, limit) => {
        const page = await ctx.store.listNewest(ctx.workspace, {
          ...baseQuery(ctx, args),
          limit,
          listedAfter: after === null ? null : listingPosition(after),
        });
        const stop = page.resumeAfter;
        return { items: page.memories, resumeAfter: stop === null ? null : [stop.createdAt, stop.id] };
      },
      positionOf: (memory) => [memory.createdAt, memory.id],
    });
  }
  const page = await keysetPage<Ranked>(ctx, args, {
    field,
    scope,
    read: (after: Position | null, limit) => {
      if (after === null) return firstRankedPage(ctx, args, limit);
      const [order, rank] = after;
      // Cursors are not secret (their binding is a hash of public values): check what one holds.
      if (typeof order !== 'string' || !Number.isSafeInteger(rank) || (rank as number) < 0)
        throw badInput('after', 'not a cursor this server gave out');
      return laterRankedPage(ctx, order, rank as number, limit);
    },
    positionOf: (ranked) => [ranked.order, ranked.rank],
  });
  return { ...page, edges: page.edges.map(({ cursor, node }) => ({ cursor, node: node.memory })) };
}

builder.queryFields((t) => ({
  searchMemoriesConnection: t.field({
    type: MemoryConnectionRef,
    description: `searchMemories a page at a time, in its order. A text search is ranked once, on its first page, and its later pages follow that ranking (at most its best ${SEARCH_PAGES_CAP} matches, for ${SEARCH_PAGES_TTL_SECONDS / 60} minutes): a write between pages never skips or repeats a match, though memories written after the first page are not among them. A listing (empty query) pages newest first by keyset and reaches every memory of its kinds / tags.`,
    args: { ...searchFilterArgs(t.arg), ...pageArgs(t.arg, 20) },
    validate: searchFilterRule,
    resolve: async (_root, args, ctx) => {
      const page = await searchPage(ctx, args);
      for (const { node } of page.edges) ctx.loaders.memory.prime(node.id, node);
      return page;
    },
  }),
}));
