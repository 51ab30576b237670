import type { GeneratedGraph } from './generator.js';

/**
 * The bound: the graph as compressed sparse rows, Int32Array offsets and targets in both
 * directions, pruned edges left out at build time. Nothing a store could do is cheaper than
 * walking these arrays in the same process.
 */
export interface Csr {
  n: number;
  outOffsets: Int32Array;
  outTargets: Int32Array;
  inOffsets: Int32Array;
  inTargets: Int32Array;
}

export function buildCsr(graph: GeneratedGraph, pruneThreshold: number): Csr {
  const n = graph.spec.memories;
  const m = graph.spec.edges;
  const outOffsets = new Int32Array(n + 1);
  const inOffsets = new Int32Array(n + 1);
  let kept = 0;
  for (let edge = 0; edge < m; edge++) {
    if ((graph.edgeWeight[edge] as number) <= pruneThreshold) continue;
    kept++;
    const from = (graph.edgeFrom[edge] as number) + 1;
    const to = (graph.edgeTo[edge] as number) + 1;
    outOffsets[from] = (outOffsets[from] as number) + 1;
    inOffsets[to] = (inOffsets[to] as number) + 1;
  }
  for (let node = 0; node < n; node++) {
    outOffsets[node + 1] = (outOffsets[node + 1] as number) + (outOffsets[node] as number);
    inOffsets[node + 1] = (inOffsets[node + 1] as number) + (inOffsets[node] as number);
  }
  const outTargets = new Int32Array(kept);
  const inTargets = new Int32Array(kept);
  const outFill = outOffsets.slice(0, n);
  const inFill = inOffsets.slice(0, n);
  for (let edge = 0; edge < m; edge++) {
    if ((graph.edgeWeight[edge] as number) <= pruneThreshold) continue;
    const from = graph.edgeFrom[edge] as number;
    const to = graph.edgeTo[edge] as number;
    outTargets[outFill[from] as number] = to;
    outFill[from] = (outFill[from] as number) + 1;
    inTargets[inFill[to] as number] = from;
    inFill[to] = (inFill[to] as number) + 1;
  }
  return { n, outOffsets, outTargets, inOffsets, inTargets };
}

/**
 * Reusable state for bidirectional BFS over a Csr: visit stamps instead of clearing arrays, so one
 * search costs only the nodes it touches.
 */
export function createCsrSearch(csr: Csr) {
  const { n, outOffsets, outTargets, inOffsets, inTargets } = csr;
  const seenF = new Int32Array(n);
  const seenB = new Int32Array(n);
  const parentF = new Int32Array(n);
  const parentB = new Int32Array(n);
  let frontierF = new Int32Array(n);
  let frontierB = new Int32Array(n);
  let nextBuffer = new Int32Array(n);
  let stamp = 0;

  /**
   * The same algorithm as Engram's path (bidirectional, level-synchronous, BOTH directions, the
   * smaller frontier first, finishing the level in which the sides meet), over integers. Returns
   * the path's node indexes, or null when none exists within maxHops.
   */
  return function shortestPath(source: number, target: number, maxHops: number): number[] | null {
    if (source === target) return [source];
    stamp++;
    seenF[source] = stamp;
    seenB[target] = stamp;
    parentF[source] = -1;
    parentB[target] = -1;
    frontierF[0] = source;
    frontierB[0] = target;
    let sizeF = 1;
    let sizeB = 1;
    let hops = 0;
    while (hops < maxHops && sizeF > 0 && sizeB > 0) {
      const forward = sizeF <= sizeB;
      const frontier = forward ? frontierF : frontierB;
      const size = forward ? sizeF : sizeB;
      const seen = forward ? seenF : seenB;
      const parent = forward ? parentF : parentB;
      const otherSeen = forward ? seenB : seenF;
      const next = nextBuffer;
      let nextSize = 0;
      let meeting = -1;
      for (let at = 0; at < size; at++) {
        const node = frontier[at] as number;
        for (let edge = outOffsets[node] as number, stop = outOffsets[node + 1] as number; edge < stop; edge++) {
          const other = outTargets[edge] as number;
          if (seen[other] === stamp) continue;
          seen[other] = stamp;
          parent[other] = node;
          next[nextSize++] = other;
          if (otherSeen[other] === stamp && (meeting === -1 || other < meeting)) meeting = other;
        }
        for (let edge = inOffsets[node] as number, stop = inOffsets[node + 1] as number; edge < stop; edge++) {
          const other = inTargets[edge] as number;
          if (seen[other] === stamp) continue;
          seen[other] = stamp;
          parent[other] = node;
          next[nextSize++] = other;
          if (otherSeen[other] === stamp && (meeting === -1 || other < meeting)) meeting = other;
        }
      }
      hops++;
      if (meeting !== -1) {
        const path: number[] = [];
        for (let node = meeting; node !== -1; node = parentF[node] as number) path.unshift(node);
        for (let node = parentB[meeting] as number; node !== -1; node = parentB[node] as number) path.push(node);
        return path;
      }
      nextBuffer = frontier;
      if (forward) {
        frontierF = next;
        sizeF = nextSize;
      } else {
        frontierB = next;
        sizeB = nextSize;
      }
    }
    return null;
  };
}
