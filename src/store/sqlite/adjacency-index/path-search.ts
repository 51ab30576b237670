import { oppositeDirection } from '../../../domain/direction.js';
import type { FrontierQuery, PathSearchOutcome } from '../../port.js';
import { Lists, listsFor } from './lists.js';
import type { WorkspaceIndex } from './workspace-index.js';

/**
 * findShortestPath (services/walks.ts) over this index's expandFrontier, step for step, on
 * integers: the smaller frontier expands first (forward on ties); a node new in a level takes as
 * parent the first step that reaches it in walk order (frontier by memory id, then weight desc,
 * then edge id); the meeting with the smallest memory id wins; the edge budget cuts a level
 * exactly where expandFrontier would. An unknown end (-1) has no edges.
 *
 * Walk order is only needed to break ties, so a level whose edges cannot exceed the budget is
 * expanded in any order and each new node keeps the best parent seen ("relaxation": smallest
 * memory id, then strongest edge); no frontier is sorted. A level the budget may cut is expanded
 * in walk order, so the cut keeps the same steps as the level-by-level walk.
 */
export function search(
  index: WorkspaceIndex,
  source: number,
  target: number,
  maxHops: number,
  query: FrontierQuery,
): PathSearchOutcome {
  const mask = index.typeMaskFor(query.types);
  const forwardLists = listsFor(query.direction);
  const backwardLists = listsFor(oppositeDirection(query.direction));
  const threshold = query.pruneThreshold;
  // seen[v] = base + the level of its side that reached it (the roots: level 0).
  const base = index.stamps(maxHops + 2);
  const { seenF, seenB, parentF, parentB, viaF, viaB, scratchSlots, scratchOther, type, overridden } = index;
  if (source >= 0) {
    seenF[source] = base;
    parentF[source] = -1;
  }
  if (target >= 0) {
    seenB[target] = base;
    parentB[target] = -1;
  }
  let frontierF = index.frontierA;
  let frontierB = index.frontierB;
  let spare = index.frontierC;
  frontierF[0] = source;
  frontierB[0] = target;
  let sizeF = 1;
  let sizeB = 1;
  let depthF = 0;
  let depthB = 0;
  let hops = 0;
  let spent = 0;

  while (hops < maxHops && sizeF > 0 && sizeB > 0) {
    const forward = !(sizeB < sizeF);
    const frontier = forward ? frontierF : frontierB;
    const size = forward ? sizeF : sizeB;
    const seen = forward ? seenF : seenB;
    const parent = forward ? parentF : parentB;
    const via = forward ? viaF : viaB;
    const otherSeen = forward ? seenB : seenF;
    const lists = forward ? forwardLists : backwardLists;
    const mark = base + (forward ? ++depthF : ++depthB);
    const remaining = query.budget - spent;
    const next = spare;
    let nextSize = 0;
    let taken = 0;
    let truncated = false;
    let meeting = -1;

    let bound = 0;
    if (size * 2 * index.maxListLength > remaining) {
      for (let at = 0; at < size && bound <= remaining; at++) bound += index.degree(frontier[at] as number, lists);
    }
    if (bound <= remaining) {
      // Any order: each new node keeps its best parent (smallest memory id, then strongest edge).
      for (let at = 0; at < size; at++) {
        const u = frontier[at] as number;
        if (u < 0) continue;
        const patched = u < overridden.length && overridden[u] === 1;
        for (let side = Lists.Out; side <= Lists.In; side <<= 1) {
          if (!(lists & side)) continue;
          const out = side === Lists.Out;
          const slots = patched ? index.listOf(u, out) : out ? index.outList : index.inList;
          const others = out ? index.outOther : index.inOther;
          const ends = out ? index.to : index.from;
          const start = index.listStart(u, out);
          const end = index.passingEnd(slots, start, index.listEnd(u, out), threshold, Number.NEGATIVE_INFINITY);
          for (let k = start; k < end; k++) {
            // CSR entries carry their other end; a patched node's list holds slots only.
            const slot = slots[k] as number;
            if (mask !== null && !mask[type[slot] as number]) continue;
            taken++;
            const v = patched ? (ends[slot] as number) : (others[k] as number);
            const state = seen[v] as number;
            if (state >= base) {
              if (state === mark) {
                const current = parent[v] as number;
                if (
                  u === current ? index.compareSlots(slot, via[v] as number) < 0 : index.compareNodes(u, current) < 0
                ) {
                  parent[v] = u;
                  via[v] = slot;
                }
              }
              continue;
            }
            seen[v] = mark;
            parent[v] = u;
            via[v] = slot;
            next[nextSize++] = v;
            if ((otherSeen[v] as number) >= base && (meeting === -1 || index.compareNodes(v, meeting) < 0)) meeting = v;
          }
        }
      }
    } else {
      // The budget may cut this level: walk order, first step wins, stop where expandFrontier stops.
      const ordered = frontier.subarray(0, size);
      if (ordered.some((u) => u >= index.baseNodes)) ordered.sort(index.compareNodes);
      else ordered.sort();
      for (let at = 0; at < size && !truncated; at++) {
        const u = ordered[at] as number;
        const count = index.collect(u, lists, threshold, mask);
        for (let k = 0; k < count; k++) {
          if (taken === remaining) {
            truncated = true;
            break;
          }
          taken++;
          const v = scratchOther[k] as number;
          if ((seen[v] as number) >= base) continue;
          seen[v] = mark;
          parent[v] = u;
          via[v] = scratchSlots[k] as number;
          next[nextSize++] = v;
          if ((otherSeen[v] as number) >= base && (meeting === -1 || index.compareNodes(v, meeting) < 0)) meeting = v;
        }
      }
    }
    spent += taken;
    hops++;
    if (meeting !== -1) return join(index, meeting);
    if (truncated) return { found: false, budgetExhausted: true };
    spare = frontier;
    if (forward) {
      frontierF = next;
      sizeF = nextSize;
    } else {
      frontierB = next;
      sizeB = nextSize;
    }
  }
  return { found: false, budgetExhausted: false };
}

function join(index: WorkspaceIndex, meeting: number): PathSearchOutcome {
  const memoryIds: string[] = [index.nodeIds[meeting] as string];
  const edgeIds: string[] = [];
  for (let node = meeting; index.parentF[node] !== -1; node = index.parentF[node] as number) {
    memoryIds.unshift(index.nodeIds[index.parentF[node] as number] as string);
    edgeIds.unshift(index.idAt(index.viaF[node] as number));
  }
  for (let node = meeting; index.parentB[node] !== -1; node = index.parentB[node] as number) {
    memoryIds.push(index.nodeIds[index.parentB[node] as number] as string);
    edgeIds.push(index.idAt(index.viaB[node] as number));
  }
  return { found: true, memoryIds, edgeIds };
}
