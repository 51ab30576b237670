import type { Direction, MemoryRecord } from '../domain/types.js';
import { isLoaded } from '../loaders/index.js';
import { supersededAmong } from '../services/supersession.js';
import { findShortestPath, traverse } from '../services/walks.js';
import { requireMemory } from '../services/writes.js';
import { type EngramContext, writeScope } from './context.js';
import type { PathView, TraversalHitView } from './refs.js';

interface PathArgs {
  maxHops: number;
  types?: string[] | null;
  direction: Direction;
  currentOnly?: boolean | null;
}

/** For `currentOnly`: a walk skips superseded memories (one degree read per level). */
const skipSuperseded = (ctx: EngramContext, currentOnly: boolean | null | undefined) =>
  currentOnly ? (ids: string[]) => supersededAmong(ctx, ids) : undefined;

export async function resolvePath(
  ctx: EngramContext,
  from: MemoryRecord | string,
  toRef: string,
  args: PathArgs,
): Promise<PathView> {
  const [start, end] = await Promise.all([
    typeof from === 'string' ? requireMemory(writeScope(ctx), from, 'from') : from,
    requireMemory(writeScope(ctx), toRef, 'to'),
  ]);
  const outcome = await findShortestPath(ctx.store, ctx.workspace, start.id, end.id, args.maxHops, {
    direction: args.direction,
    types: args.types ?? null,
    pruneThreshold: ctx.policy.pruneThreshold,
    budget: ctx.limits.walkBudget,
    exclude: skipSuperseded(ctx, args.currentOnly),
    signal: ctx.signal,
  });
  if (outcome.found && (await allInWorkspace(ctx, outcome.memoryIds))) {
    return { found: true, memoryIds: outcome.memoryIds, edgeIds: outcome.edgeIds, message: null };
  }
  const message = noPathMessage(start, end, args.maxHops);
  return {
    found: false,
    memoryIds: [],
    edgeIds: [],
    message:
      !outcome.found && outcome.budgetExhausted
        ? `${message} (the search stopped after examining ${ctx.limits.walkBudget} edges)`
        : message,
  };
}

const TITLE_CHARS = 60;

/** How a message names a memory: its key, else its title (quoted, shortened), else its id. */
function nameOf(memory: MemoryRecord): string {
  if (memory.key) return memory.key;
  const title = memory.title.trim().replace(/\s+/g, ' ');
  if (!title) return memory.id;
  return `"${title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title}"`;
}

/**
 * The contract's "No path from <a> to <b> within <n> hops", in words a person recognises. Two
 * different memories that read the same (equal titles, no keys) get their ids added, so the
 * message still says which is which.
 */
function noPathMessage(start: MemoryRecord, end: MemoryRecord, maxHops: number): string {
  let from = nameOf(start);
  let to = nameOf(end);
  if (from === to) {
    from = `${from} (${start.id})`;
    to = `${to} (${end.id})`;
  }
  return `No path from ${from} to ${to} within ${maxHops} ${maxHops === 1 ? 'hop' : 'hops'}`;
}

interface TraverseArgs {
  maxDepth: number;
  types?: string[] | null;
  direction: Direction;
  limit: number;
  currentOnly?: boolean | null;
}

export async function resolveTraverse(
  ctx: EngramContext,
  start: MemoryRecord,
  args: TraverseArgs,
): Promise<TraversalHitView[]> {
  const { hits } = await traverse(ctx.store, ctx.workspace, start.id, args.maxDepth, args.limit, {
    direction: args.direction,
    types: args.types ?? null,
    pruneThreshold: ctx.policy.pruneThreshold,
    budget: ctx.limits.walkBudget,
    exclude: skipSuperseded(ctx, args.currentOnly),
    signal: ctx.signal,
  });
  return withinWorkspace(
    ctx,
    hits.map(({ memoryId, depth, via }) => ({ memoryId, depth, via })),
  );
}

/**
 * Walks follow edge rows; a row whose far end is not a memory of the workspace (only possible by
 * writing the database directly) must not lead anywhere. These checks load the memories the
 * answer shows anyway (one batched call, cached for the fields that follow).
 */
async function allInWorkspace(ctx: EngramContext, memoryIds: readonly string[]): Promise<boolean> {
  const found = await ctx.loaders.memory.loadMany(memoryIds);
  return found.every(isLoaded);
}

/** Drops hits on such memories, and every hit reached through one (hits come in depth order). */
async function withinWorkspace(ctx: EngramContext, hits: TraversalHitView[]): Promise<TraversalHitView[]> {
  const found = await ctx.loaders.memory.loadMany(hits.map((hit) => hit.memoryId));
  const blocked = new Set<string>();
  return hits.filter((hit, index) => {
    const reachedThroughBlocked = blocked.has(hit.via.slice(0, -1).join(' '));
    const missing = !isLoaded(found[index]);
    if (missing || reachedThroughBlocked) blocked.add(hit.via.join(' '));
    return !missing && !reachedThroughBlocked;
  });
}
