import { oppositeDirection } from '../domain/direction.js';
import type { Direction, FrontierStep } from '../domain/types.js';
import { compareIds } from '../store/key-order.js';
import type { FrontierQuery, GraphStore } from '../store/port.js';

/** A walk's settings; `budget` is the most edges the whole walk may examine, so a hub cannot make one request unbounded. */
export interface WalkOptions extends FrontierQuery {
  /**
   * Memories the walk must not enter, asked once per level for the memories that level reached
   * (e.g. superseded ones, for `currentOnly`). The start and end memories are never asked about.
   */
  exclude?: (memoryIds: string[]) => Promise<ReadonlySet<string>>;
  /** The request deadline: checked before each level, so a walk stops (throwing the signal's reason) once it passes. */
  signal?: AbortSignal;
}

export type PathOutcome =
  | { found: true; memoryIds: string[]; edgeIds: string[] }
  | { found: false; budgetExhausted: boolean };

/**
 * Stronger edges first, then edge id, so every walk makes the same choices on the same graph:
 * strongestFirst's order, on a step's `edgeId` (wrapping each step for it would allocate per comparison).
 */
const byStrength = (a: FrontierStep, b: FrontierStep) => b.weight - a.weight || compareIds(a.edgeId, b.edgeId);

/** The store's query for the next level: the walk's filters, what is left of its budget (no exclude or signal). */
const levelQuery = (options: WalkOptions, direction: Direction, spent: number): FrontierQuery => ({
  direction,
  types: options.types,
  pruneThreshold: options.pruneThreshold,
  budget: options.budget - spent,
});

const byFromThenStrength = (a: FrontierStep, b: FrontierStep) => compareIds(a.from, b.from) || byStrength(a, b);

interface Side {
  frontier: string[];
  /** node -> how it was reached from this side's root (null for the root). */
  reached: Map<string, { via: string; edgeId: string } | null>;
  direction: Direction;
}

/**
 * Shortest path by bidirectional, level-synchronous BFS: each step expands one side's whole
 * frontier in ONE store call, the smaller side first. After a level that meets the other side,
 * every meeting gives the same (shortest) length; the one through the smallest memory id wins.
 * Inside a level a newly reached node keeps the edge from the lowest-id frontier memory that
 * reaches it (the strongest such edge, then the lowest edge id), so ties are stable. The SQLite
 * adjacency index answers with the same rules; a test compares the two.
 */
export async function findShortestPath(
  store: GraphStore,
  workspace: string,
  fromId: string,
  toId: string,
  maxHops: number,
  options: WalkOptions,
): Promise<PathOutcome> {
  if (fromId === toId) return { found: true, memoryIds: [fromId], edgeIds: [] };
  if (store.shortestPath && !options.exclude) {
    // A store that can search in one call (the SQLite adjacency index) gives the same answer, faster.
    options.signal?.throwIfAborted();
    const outcome = await store.shortestPath(
      workspace,
      fromId,
      toId,
      maxHops,
      levelQuery(options, options.direction, 0),
    );
    if (outcome) return outcome;
  }
  const forward: Side = { frontier: [fromId], reached: new Map([[fromId, null]]), direction: options.direction };
  const backward: Side = {
    frontier: [toId],
    reached: new Map([[toId, null]]),
    direction: oppositeDirection(options.direction),
  };
  let hops = 0;
  let spent = 0;

  while (hops < maxHops && forward.frontier.length > 0 && backward.frontier.length > 0) {
    options.signal?.throwIfAborted();
    const [side, other] =
      backward.frontier.length < forward.frontier.length ? [backward, forward] : [forward, backward];
    const expansion = await store.expandFrontier(workspace, side.frontier, levelQuery(options, side.direction, spent));
    spent += expansion.steps.length;
    const excluded = await excludedAmong(
      options,
      expansion.steps,
      (id) => side.reached.has(id) || id === fromId || id === toId,
    );
    const next: string[] = [];
    for (const step of expansion.steps.sort(byFromThenStrength)) {
      if (side.reached.has(step.to) || excluded.has(step.to)) continue;
      side.reached.set(step.to, { via: step.from, edgeId: step.edgeId });
      next.push(step.to);
    }
    hops++;
    const meetings = next.filter((id) => other.reached.has(id)).sort();
    if (meetings.length > 0) {
      const meeting = meetings[0] as string;
      const [head, tail] = side === forward ? [side, other] : [other, side];
      return { found: true, ...joinAt(meeting, head, tail) };
    }
    if (expansion.truncated) return { found: false, budgetExhausted: true };
    side.frontier = next.sort();
  }
  return { found: false, budgetExhausted: false };
}

const NONE: ReadonlySet<string> = new Set();

/** Asks `options.exclude` (one call) about the memories a level newly reached, skipping those `known` says need no answer. */
async function excludedAmong(
  options: WalkOptions,
  steps: readonly FrontierStep[],
  known: (id: string) => boolean,
): Promise<ReadonlySet<string>> {
  if (!options.exclude) return NONE;
  const fresh = [...new Set(steps.map((step) => step.to))].filter((id) => !known(id));
  return fresh.length === 0 ? NONE : options.exclude(fresh);
}

function joinAt(meeting: string, forward: Side, backward: Side): { memoryIds: string[]; edgeIds: string[] } {
  const memoryIds: string[] = [meeting];
  const edgeIds: string[] = [];
  for (let link = forward.reached.get(meeting); link; link = forward.reached.get(link.via)) {
    memoryIds.unshift(link.via);
    edgeIds.unshift(link.edgeId);
  }
  for (let link = backward.reached.get(meeting); link; link = backward.reached.get(link.via)) {
    memoryIds.push(link.via);
    edgeIds.push(link.edgeId);
  }
  return { memoryIds, edgeIds };
}

export interface TraversalHitIds {
  memoryId: string;
  depth: number;
  /** Edge ids walked from the start, in order. */
  via: string[];
  lastWeight: number;
}

/**
 * Breadth-first walk from one memory, one store call per depth level. Each memory is reported
 * once, at its smallest depth, reached through the strongest edge from the previous level.
 * Hits are ordered by depth, then the weight of the last edge (strongest first), then id; the
 * walk stops early once `limit` hits are certain, or when the edge budget runs out.
 */
export async function traverse(
  store: GraphStore,
  workspace: string,
  startId: string,
  maxDepth: number,
  limit: number,
  options: WalkOptions,
): Promise<{ hits: TraversalHitIds[]; budgetExhausted: boolean }> {
  const hits: TraversalHitIds[] = [];
  const pathTo = new Map<string, string[]>([[startId, []]]);
  let frontier = [startId];
  let spent = 0;

  for (let depth = 1; depth <= maxDepth && frontier.length > 0 && hits.length < limit; depth++) {
    options.signal?.throwIfAborted();
    const expansion = await store.expandFrontier(workspace, frontier, levelQuery(options, options.direction, spent));
    spent += expansion.steps.length;
    const excluded = await excludedAmong(options, expansion.steps, (id) => pathTo.has(id));
    const level: TraversalHitIds[] = [];
    for (const step of expansion.steps.sort(byStrength)) {
      if (pathTo.has(step.to) || excluded.has(step.to)) continue;
      const via = [...(pathTo.get(step.from) ?? []), step.edgeId];
      pathTo.set(step.to, via);
      level.push({ memoryId: step.to, depth, via, lastWeight: step.weight });
    }
    level.sort((a, b) => b.lastWeight - a.lastWeight || compareIds(a.memoryId, b.memoryId));
    hits.push(...level.slice(0, limit - hits.length));
    if (expansion.truncated) return { hits, budgetExhausted: true };
    frontier = level.map((hit) => hit.memoryId);
  }
  return { hits, budgetExhausted: false };
}
