import { EngramError } from '../domain/errors.js';
import type { Direction, MemoryRecord } from '../domain/types.js';
import { findShortestPath, traverse } from '../services/walks.js';
import type { EngramContext } from './context.js';
import type { PathView, TraversalHitView } from './shapes.js';

interface PathArgs {
  maxHops: number;
  types?: string[] | null;
  direction: Direction;
}

async function requireRef(ctx: EngramContext, ref: string, argument: string): Promise<MemoryRecord> {
  const memory = await ctx.loaders.memory.load(ref);
  if (!memory) throw new EngramError('NOT_FOUND', `${argument}: no memory "${ref}" in this workspace`, { extensions: { argument } });
  return memory;
}

export async function resolvePath(ctx: EngramContext, from: MemoryRecord | string, toRef: string, args: PathArgs): Promise<PathView> {
  const [start, end] = await Promise.all([
    typeof from === 'string' ? requireRef(ctx, from, 'from') : from,
    requireRef(ctx, toRef, 'to'),
  ]);
  const outcome = await findShortestPath(ctx.store, ctx.workspace, start.id, end.id, args.maxHops, {
    direction: args.direction,
    types: args.types ?? null,
    pruneThreshold: ctx.policy.pruneThreshold,
    budget: ctx.limits.walkBudget,
  });
  if (outcome.found) return { found: true, memoryIds: outcome.memoryIds, edgeIds: outcome.edgeIds, message: null };
  const fromName = typeof from === 'string' ? from : start.id;
  const message = `No path from ${fromName} to ${toRef} within ${args.maxHops} hops`;
  return {
    found: false,
    memoryIds: [],
    edgeIds: [],
    message: outcome.budgetExhausted ? `${message} (the search stopped after examining ${ctx.limits.walkBudget} edges)` : message,
  };
}

interface TraverseArgs {
  maxDepth: number;
  types?: string[] | null;
  direction: Direction;
  limit: number;
}

export async function resolveTraverse(ctx: EngramContext, start: MemoryRecord, args: TraverseArgs): Promise<TraversalHitView[]> {
  const { hits } = await traverse(ctx.store, ctx.workspace, start.id, args.maxDepth, args.limit, {
    direction: args.direction,
    types: args.types ?? null,
    pruneThreshold: ctx.policy.pruneThreshold,
    budget: ctx.limits.walkBudget,
  });
  return hits.map(({ memoryId, depth, via }) => ({ memoryId, depth, via }));
}
