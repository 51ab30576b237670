import type { MemoryRecord } from '../../domain/types.js';
import { compareIds } from '../key-order.js';
import type { ListingPage, ListingPosition } from '../port.js';

/**
 * Most index entries one kind's or one tag's walk reads for a page of a listing. The filters
 * (kinds beside tags, currentOnly) are checked on each entry read, so without a bound a listing
 * whose filters reject most of a tag's memories would read all of them (a tag on 100k memories, a
 * kind every memory has); with it a page stops there and says where (ListingPage.resumeAfter).
 */
export const LISTING_SCAN = 1_000;

/** What one walk of a listing answered: the memories that passed, and where its scan bound cut it, if it did. */
export interface ListingWalk {
  memories: readonly MemoryRecord[];
  cut: ListingPosition | null;
}

/** (createdAt, id) descending: the order of every listing index. */
const newestFirst = (a: ListingPosition, b: ListingPosition): number =>
  compareIds(b.createdAt, a.createdAt) || compareIds(b.id, a.id);

const positionOf = (memory: MemoryRecord): ListingPosition => ({ createdAt: memory.createdAt, id: memory.id });

/**
 * The walks of one page, one per kind or tag, merged newest first, each memory once (a memory may
 * carry two of the tags), at most `limit`. A walk its scan bound cut knows nothing below its cut,
 * so the page keeps only what is not older than the newest cut; when that leaves the page short, the
 * page says so (`resumeAfter`) and the next one starts there: a filter that rejects most memories
 * costs more pages, never an unbounded read.
 */
export function mergeWalks(walks: readonly ListingWalk[], limit: number): ListingPage {
  const cut = walks
    .map((walk) => walk.cut)
    .filter((position): position is ListingPosition => position !== null)
    .sort(newestFirst)[0];
  const byId = new Map<string, MemoryRecord>();
  for (const walk of walks) for (const memory of walk.memories) byId.set(memory.id, memory);
  const memories = [...byId.values()]
    .filter((memory) => cut === undefined || newestFirst(positionOf(memory), cut) <= 0)
    .sort((a, b) => newestFirst(positionOf(a), positionOf(b)))
    .slice(0, limit);
  return { memories, resumeAfter: cut !== undefined && memories.length < limit ? cut : null };
}
