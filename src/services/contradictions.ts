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

/** The sort key of a contradiction in the view's order: (resolved 0|1, strength, a id, b id). */
export type ContradictionPosition = readonly (string | number)[];

export const contradictionPosition = (found: ContradictionView): ContradictionPosition => [
  Number(found.resolved),
  found.strength,
  found.aId,
  found.bId,
];

/** Unresolved first, then strongest first, then by the ids of a and b. */
const comparePositions = (x: ContradictionPosition, y: ContradictionPosition): number =>
  Number(x[0]) - Number(y[0]) ||
  Number(y[1]) - Number(x[1]) ||
  compareIds(String(x[2]), String(y[2])) ||
  compareIds(String(x[3]), String(y[3]));

const contradictionOrder = (x: ContradictionView, y: ContradictionView): number =>
  comparePositions(contradictionPosition(x), contradictionPosition(y));

export interface ContradictionFilter {
  minWeight: number | null;
  kinds: readonly ContradictionKind[];
}

export interface ContradictionQuery extends ContradictionFilter {
  limit: number;
}

/** Contradicting edges per listEdgesByType; each such read costs three store calls (edges, adjacency, degree). */
const PAGE = 200;

/**
 * Judging edges read per source of a page, strongest first: a memory that validates 50,000
 * others costs this many rows; a pair past the cut is judged by the edges read.
 */
const JUDGING_PER_SOURCE = 500;

/** The contradictions of the workspace, unresolved first, then strongest first: the first page. */
export function listContradictions(scope: ReadScope, query: ContradictionQuery): Promise<ContradictionView[]> {
  return contradictionsAfter(scope, query, null, query.limit);
}

/** One stretch of the contradicting edges, strongest first: from `from` (the top when null) down. */
interface Pass {
  from: { weight: number; id: string } | null;
  /** The stretch ends at the first edge this light or lighter (the bottom when null). */
  floor: number | null;
  /** The most-significant key (0 unresolved, 1 resolved) of any pair still unread. */
  tier: number;
}

/**
 * At most `limit` contradictions after `after` (a contradictionPosition; the start when null), in
 * the view's order. Contradicting edges are read strongest first, PAGE at a time
 * (listEdgesByType); for the new sources of each read one adjacency read finds every supporting and
 * contradicting edge of their pairs, and one degree read tells which ends are superseded.
 *
 * A pair's strength is the weight of one of its edges: for DIRECT a contradicting one, so nothing
 * unread can outrank a pair stronger than the last edge read, and with only DIRECT asked for the
 * read starts at the cursor's strength (the store does the keyset). A MIXED pair's strength is
 * its supporting side's when that is weaker, and its contradicting edges may outweigh the cursor:
 * with MIXED asked for, every page reads from the strongest edge down, a bounded walk. A page
 * stops reading once `limit` pairs after the cursor can no longer be outranked, at the end, or
 * after the walk budget of edges, when it lists what it read (the bound, as for the plain field).
 */
export async function contradictionsAfter(
  scope: ReadScope,
  filter: ContradictionFilter,
  after: ContradictionPosition | null,
  limit: number,
): Promise<ContradictionView[]> {
  const kinds = new Set(filter.kinds);
  const found = new Map<string, ContradictionView>();
  const checkedSources = new Set<string>();
  const cursorTier = after === null ? 0 : Number(after[0]);
  // id '' sorts before every id: the read starts with the edges as heavy as the cursor's pair.
  const from = after !== null && !kinds.has('MIXED') ? { weight: Number(after[1]), id: '' } : null;
  const passes: Pass[] = [{ from, floor: null, tier: cursorTier }];
  // Resolved pairs stronger than an unresolved cursor lie above where its read started.
  if (from !== null && cursorTier === 0) passes.push({ from: null, floor: from.weight, tier: 1 });
  let scanned = 0;

  for (const pass of passes) {
    let edgeAfter = pass.from;
    for (;;) {
      const page = await scope.store.listEdgesByType(scope.workspace, {
        types: CONTRADICTING_TYPES,
        minWeight: filter.minWeight,
        pruneThreshold: scope.policy.pruneThreshold,
        after: edgeAfter,
        limit: PAGE,
      });
      scanned += page.length;
      const sources = [...new Set(page.map((edge) => edge.fromId))].filter((id) => !checkedSources.has(id));
      for (const id of sources) checkedSources.add(id);
      const lists = await adjacentOf(scope, sources, {
        direction: 'OUTGOING',
        types: JUDGING_TYPES,
        minWeight: filter.minWeight,
        limitPerMemory: JUDGING_PER_SOURCE,
      });
      const candidates = contradictionsAmong(
        lists.flat().map((entry) => entry.edge),
        filter.minWeight,
      );
      for (const candidate of await markResolved(scope, candidates)) {
        if (!kinds.has(candidate.kind)) continue;
        if (after !== null && comparePositions(contradictionPosition(candidate), after) <= 0) continue;
        found.set(pairKey(candidate.aId, candidate.bId), candidate);
      }

      const last = page[page.length - 1];
      if (!last || page.length < PAGE || (pass.floor !== null && last.weight <= pass.floor)) break;
      if (scanned >= scope.limits.walkBudget) return ordered(found, limit);
      // Nothing unread outranks these: a lower tier, or the same tier and stronger than the last edge read.
      let settled = 0;
      for (const candidate of found.values()) {
        const tier = Number(candidate.resolved);
        if (tier < pass.tier || (tier === pass.tier && candidate.strength > last.weight)) settled++;
      }
      if (settled >= limit) return ordered(found, limit);
      edgeAfter = { weight: last.weight, id: last.id };
    }
  }
  return ordered(found, limit);
}

const ordered = (found: Map<string, ContradictionView>, limit: number): ContradictionView[] =>
  [...found.values()].sort(contradictionOrder).slice(0, limit);
