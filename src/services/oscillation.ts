import type { EdgeRecord } from '../domain/types.js';
import { compareIds } from '../store/key-order.js';
import { loadAll, type ReadScope } from './research-views.js';

export interface OscillationQuery {
  minFlips: number;
  limit: number;
  /** How many of the workspace's newest weight events to read. */
  window: number;
}

interface Swings {
  edgeId: string;
  flips: number;
  /** Position of the edge's newest event in the log (0 = newest of all). */
  newest: number;
}

/**
 * Edges whose weight was pulled both ways repeatedly. Reads the newest `window` weight events of
 * the workspace (one store call), and counts for each edge the flips: changes of direction between
 * consecutive non-zero deltas, oldest to newest (+ - + - is three flips). Edges with at least
 * `minFlips` are returned most flips first, then most recently changed, then by id; edges removed
 * since are left out. One more store call loads the edges.
 */
export async function findOscillatingEdges(scope: ReadScope, query: OscillationQuery): Promise<EdgeRecord[]> {
  const events = await scope.store.listWeightEvents(scope.workspace, {
    edgeId: null,
    memoryId: null,
    source: null,
    limit: query.window,
  });
  const swings = new Map<string, Swings & { lastSign: number }>();
  // Newest first in the log: walk it backwards to see each edge's changes in the order they happened.
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!event || event.edgeId === null || event.delta === 0) continue;
    const sign = Math.sign(event.delta);
    const entry = swings.get(event.edgeId) ?? { edgeId: event.edgeId, flips: 0, newest: index, lastSign: 0 };
    if (entry.lastSign !== 0 && sign !== entry.lastSign) entry.flips++;
    entry.lastSign = sign;
    entry.newest = index;
    swings.set(event.edgeId, entry);
  }
  const candidates = [...swings.values()]
    .filter((entry) => entry.flips >= query.minFlips)
    .sort((a, b) => b.flips - a.flips || a.newest - b.newest || compareIds(a.edgeId, b.edgeId));
  const edges = await loadAll(
    scope.loaders.edge,
    candidates.map((entry) => entry.edgeId),
  );
  return edges.filter((edge): edge is EdgeRecord => edge !== null).slice(0, query.limit);
}
