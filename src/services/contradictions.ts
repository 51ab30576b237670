import { CONTRADICTING_TYPES, CONTRADICTS, isContradicting, isSupporting, JUDGING_TYPES } from '../domain/evidence.js';
import type { EdgeRecord } from '../domain/types.js';
import { compareIds, strongestFirst } from '../store/key-order.js';
import { adjacentOf, type ReadScope } from './research-views.js';
import { supersededAmong } from './supersession.js';

/**
 * DIRECT: `a` contradicts `b` (CONTRADICTS, or FAILS_TO_REPRODUCE on its own) and does not support
 * it. MIXED: `a` both supports `b` (VALIDATES, REPLICATES, REPRODUCES) and contradicts it through
 * different edges.
 */
export type ContradictionKind = 'DIRECT' | 'MIXED';

export const CONTRADICTION_KINDS: readonly ContradictionKind[] = ['DIRECT', 'MIXED'];

export interface ContradictionView {
  aId: string;
  bId: string;
  kind: ContradictionKind;
  /** The strongest CONTRADICTS edge from a to b, else the strongest FAILS_TO_REPRODUCE edge of a DIRECT pair; null for a MIXED pair disagreeing only through FAILS_TO_REPRODUCE. */
  edge: EdgeRecord | null;
  /** Every supporting and contradicting edge from a to b, strongest first. */
  edges: EdgeRecord[];
  /** DIRECT: the weight of `edge`. MIXED: the weaker of the strongest supporting and the strongest contradicting edge. */
  strength: number;
  /** True when a or b is superseded (an unpruned SUPERSEDES edge points at it). */
  resolved: boolean;
}

const pairKey = (aId: string, bId: string): string => JSON.stringify([aId, bId]);

/**
 * Groups edges by ordered pair (from, to) and keeps the pairs that disagree: one entry per pair,
 * MIXED when the pair also has a supporting edge, else DIRECT: a failed reproduction with nothing in
 * its favour disagrees as plainly as a CONTRADICTS edge.
 * `resolved` is left false; see `markResolved`.
 */
export function contradictionsAmong(edges: readonly EdgeRecord[], minWeight: number | null): ContradictionView[] {
  const pairs = new Map<string, EdgeRecord[]>();
  const seen = new Set<string>();
  for (const edge of edges) {
    if (seen.has(edge.id) || (minWeight !== null && edge.weight < minWeight)) continue;
    if (!isSupporting(edge.type) && !isContradicting(edge.type)) continue;
    seen.add(edge.id);
    const key = pairKey(edge.fromId, edge.toId);
    pairs.set(key, [...(pairs.get(key) ?? []), edge]);
  }
  const found: ContradictionView[] = [];
  for (const list of pairs.values()) {
    const sorted = [...list].sort(strongestFirst);
    const supporting = sorted.filter((edge) => isSupporting(edge.type));
    const contradicting = sorted.filter((edge) => isContradicting(edge.type));
    const direct = contradicting.find((edge) => edge.type === CONTRADICTS) ?? null;
    const first = sorted[0] as EdgeRecord;
    const base = { aId: first.fromId, bId: first.toId, edge: direct, edges: sorted, resolved: false };
    if (supporting.length > 0 && contradicting.length > 0) {
      found.push({
        ...base,
        kind: 'MIXED',
        strength: Math.min((supporting[0] as EdgeRecord).weight, (contradicting[0] as EdgeRecord).weight),
      });
    } else if (contradicting.length > 0) {
      const strongest = direct ?? (contradicting[0] as EdgeRecord);
      found.push({ ...base, edge: strongest, kind: 'DIRECT', strength: strongest.weight });
    }
  }
  return found;
}

/** Sets `resolved` on each contradiction with one store call for all their ends. */
export async function markResolved(
  scope: ReadScope,
  contradictions: ContradictionView[],
): Promise<ContradictionView[]> {
  const ends = [...new Set(contradictions.flatMap((found) => [found.aId, found.bId]))];
  const superseded = await supersededAmong(scope, ends);
  return contradictions.map((found) => ({
    ...found,
    resolved: superseded.has(found.aId) || superseded.has(found.bId),
  }));
}

/** Unresolved first, then strongest first, then by the ids of a and b. */
const contradictionOrder = (x: ContradictionView, y: ContradictionView): number =>
  Number(x.resolved) - Number(y.resolved) ||
  y.strength - x.strength ||
  compareIds(x.aId, y.aId) ||
  compareIds(x.bId, y.bId);

export interface ContradictionQuery {
  limit: number;
  minWeight: number | null;
  kinds: readonly ContradictionKind[];
}

/** Contradicting edges read per page; a page costs three store calls whatever its size. */
const PAGE = 200;

/**
 * Judging edges read per source of a page, strongest first: a memory that validates 50,000
 * others costs this many rows; a pair past the cut is judged by the edges read.
 */
const JUDGING_PER_SOURCE = 500;

/**
 * The contradictions of the workspace, unresolved first, then strongest first. Contradicting
 * edges are read strongest first, a page at a time (listEdgesByType); for the sources of each page
 * one adjacency read finds every supporting and contradicting edge of their pairs, and one degree
 * read tells which ends are superseded. Paging stops once `limit` unresolved contradictions are
 * known to outrank everything not read yet, or after the walk budget of edges.
 */
export async function listContradictions(scope: ReadScope, query: ContradictionQuery): Promise<ContradictionView[]> {
  const kinds = new Set(query.kinds);
  const found: ContradictionView[] = [];
  const checkedSources = new Set<string>();
  let after: { weight: number; id: string } | null = null;
  let scanned = 0;

  for (;;) {
    const page = await scope.store.listEdgesByType(scope.workspace, {
      types: CONTRADICTING_TYPES,
      minWeight: query.minWeight,
      pruneThreshold: scope.policy.pruneThreshold,
      after,
      limit: PAGE,
    });
    scanned += page.length;
    const sources = [...new Set(page.map((edge) => edge.fromId))].filter((id) => !checkedSources.has(id));
    for (const id of sources) checkedSources.add(id);
    const lists = await adjacentOf(scope, sources, {
      direction: 'OUTGOING',
      types: JUDGING_TYPES,
      minWeight: query.minWeight,
      limitPerMemory: JUDGING_PER_SOURCE,
    });
    const candidates = contradictionsAmong(
      lists.flat().map((entry) => entry.edge),
      query.minWeight,
    );
    found.push(...(await markResolved(scope, candidates)).filter((candidate) => kinds.has(candidate.kind)));

    const last = page[page.length - 1];
    if (!last || page.length < PAGE || scanned >= scope.limits.walkBudget) break;
    // Nothing unread is stronger than the last edge read, so these can no longer be outranked.
    const settled = found.filter((candidate) => !candidate.resolved && candidate.strength >= last.weight).length;
    if (settled >= query.limit) break;
    after = { weight: last.weight, id: last.id };
  }
  return found.sort(contradictionOrder).slice(0, query.limit);
}
