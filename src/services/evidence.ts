import { EVIDENCE_WALK_TYPES, isContradicting, isSupporting, supportScore } from '../domain/evidence.js';
import type { AdjacentEdge, EdgeRecord, MemoryRecord } from '../domain/types.js';
import { roundWeight } from '../domain/weights.js';
import { compareIds } from '../store/key-order.js';
import { adjacentOf, type ReadScope } from './research-views.js';

export interface EvidenceItemView {
  memory: MemoryRecord;
  /** The chain in reading order: via[0] leaves the evidence memory, the last edge reaches the judged memory. */
  via: EdgeRecord[];
  /** Product of the edge weights along `via`. */
  weight: number;
}

export interface EvidenceView {
  supporting: EvidenceItemView[];
  contradicting: EvidenceItemView[];
  score: number;
  /** True when evidence was left unread (a memory with more than EVIDENCE_PER_MEMORY edges, or the budget) or cut by `limit`. */
  truncated: boolean;
  /** Every item the walk found on each side, in order, uncut by `limit`: what the connections page. */
  all: { supporting: EvidenceItemView[]; contradicting: EvidenceItemView[] };
  /** What shaped the walk: a page's cursor is bound to it. */
  walk: { memoryId: string; minWeight: number | null; maxDepth: number };
}

export interface EvidenceOptions {
  minWeight: number | null;
  maxDepth: number;
  /** Most items returned on each side; the score counts every item read. */
  limit: number;
}

/**
 * Strongest evidence edges read into each memory of the chain. A hub validated by 50,000
 * memories is judged by its strongest 200: the walk costs what that cap allows, not the hub's degree.
 */
const EVIDENCE_PER_MEMORY = 200;

interface Chain {
  via: EdgeRecord[];
  weight: number;
}

/** The sort key of an item in its side's order: (chain weight, chain length, memory id). */
export type EvidencePosition = readonly (string | number)[];

export const evidencePosition = (item: EvidenceItemView): EvidencePosition => [
  item.weight,
  item.via.length,
  item.memory.id,
];

/** Strongest first, then shorter chains, then memory id. */
const comparePositions = (x: EvidencePosition, y: EvidencePosition): number =>
  Number(y[0]) - Number(x[0]) || Number(x[1]) - Number(y[1]) || compareIds(String(x[2]), String(y[2]));

const byStrength = (a: EvidenceItemView, b: EvidenceItemView) =>
  comparePositions(evidencePosition(a), evidencePosition(b));

/**
 * At most `limit` items of one side after `after` (an evidencePosition). The side is the walk's
 * whole answer, recomputed for every page and bounded as the walk is (EVIDENCE_PER_MEMORY edges
 * into each memory of the chain, maxDepth levels, the walk and work budgets); a page is the items
 * after the cursor's key in that order, so a write between pages moves no unchanged item across it.
 */
export function evidenceAfter(
  items: readonly EvidenceItemView[],
  after: EvidencePosition | null,
  limit: number,
): EvidenceItemView[] {
  const rest = after === null ? items : items.filter((item) => comparePositions(evidencePosition(item), after) > 0);
  return rest.slice(0, limit);
}

/**
 * The evidence chain of a memory, walked against the edge direction (evidence points at what it
 * judges), one store call per depth level:
 * - a memory with a VALIDATES, REPLICATES or REPRODUCES edge into the chain supports it; one with
 *   a CONTRADICTS or FAILS_TO_REPRODUCE edge contradicts it, and the walk does not continue past it;
 * - the walk continues through supporting memories and through EXTENDS / FORMALIZES edges, so
 *   evidence for an experiment that validates the memory, or for a model that formalizes it,
 *   counts for the memory too, weighted down by the product of the weights along the chain.
 * Each memory is counted at most once per side, by its shortest chain (the strongest among equally
 * short ones). Pruned edges and edges lighter than minWeight are not followed.
 */
export async function evidenceFor(scope: ReadScope, memoryId: string, options: EvidenceOptions): Promise<EvidenceView> {
  const chains = new Map<string, Chain>([[memoryId, { via: [], weight: 1 }]]);
  const supporting = new Map<string, EvidenceItemView>();
  const contradicting = new Map<string, EvidenceItemView>();
  let frontier = [memoryId];
  let spent = 0;
  let truncated = false;

  for (let depth = 1; depth <= options.maxDepth && frontier.length > 0; depth++) {
    // The level reads at most what both budgets have left; the frontier is strongest chain first,
    // so what a cut leaves out is the weakest evidence.
    const room = Math.min(scope.limits.walkBudget - spent, scope.work.remaining());
    if (room <= 0) {
      truncated = true;
      break;
    }
    const lists = await adjacentOf(scope, frontier, {
      direction: 'INCOMING',
      types: EVIDENCE_WALK_TYPES,
      minWeight: options.minWeight,
      limitPerMemory: EVIDENCE_PER_MEMORY,
      maxRows: room,
    });
    if (
      lists.some((list) => list.length >= EVIDENCE_PER_MEMORY) ||
      lists.reduce((rows, list) => rows + list.length, 0) >= room
    )
      truncated = true;
    const steps: { entry: AdjacentEdge; chain: Chain }[] = [];
    lists.forEach((list, index) => {
      const parent = chains.get(frontier[index] as string) as Chain;
      for (const entry of list) {
        steps.push({
          entry,
          chain: { via: [entry.edge, ...parent.via], weight: roundWeight(parent.weight * entry.edge.weight) },
        });
      }
    });
    spent += steps.length;
    steps.sort((a, b) => b.chain.weight - a.chain.weight || compareIds(a.entry.edge.id, b.entry.edge.id));

    const next: string[] = [];
    for (const { entry, chain } of steps) {
      const source = entry.neighbor;
      if (source.id === memoryId) continue;
      const item = { memory: source, ...chain };
      if (isContradicting(entry.edge.type)) {
        if (!contradicting.has(source.id)) contradicting.set(source.id, item);
        continue;
      }
      if (isSupporting(entry.edge.type) && !supporting.has(source.id)) supporting.set(source.id, item);
      if (!chains.has(source.id)) {
        chains.set(source.id, chain);
        next.push(source.id);
      }
    }
    frontier = next;
  }

  const supportingItems = [...supporting.values()].sort(byStrength);
  const contradictingItems = [...contradicting.values()].sort(byStrength);
  return {
    supporting: supportingItems.slice(0, options.limit),
    contradicting: contradictingItems.slice(0, options.limit),
    score: supportScore(
      supportingItems.map((item) => item.weight),
      contradictingItems.map((item) => item.weight),
    ),
    truncated: truncated || supportingItems.length > options.limit || contradictingItems.length > options.limit,
    all: { supporting: supportingItems, contradicting: contradictingItems },
    walk: { memoryId, minWeight: options.minWeight, maxDepth: options.maxDepth },
  };
}
