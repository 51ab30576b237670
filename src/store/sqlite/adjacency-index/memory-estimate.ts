import { ZERO_OFFSETS } from './slot-arrays.js';
import type { WorkspaceIndex } from './workspace-index.js';

/** Least estimated bytes an edge costs in an index: a workspace with more edges than maxBytes / this is not indexed. */
export const EDGE_BYTES = 60;
/** Estimated bytes of a node beyond its typed-array entries: its id string, its nodeIds slot and its nodeOf entry. */
const NODE_BYTES = 100;
/** Estimated bytes of one Map entry with a short key (overlay slots, odd ids, types). */
const ENTRY_BYTES = 80;
/** Estimated bytes of a typed array beyond its elements (its object and buffer). */
const ARRAY_BYTES = 150;
/** Estimated bytes of an index before it holds anything: the object, its six maps, its closures. */
const INDEX_BYTES = 2700;

/**
 * Estimated memory held: the arrays' elements exactly, everything else per item (ARRAY_BYTES,
 * NODE_BYTES, ENTRY_BYTES, override lists at 8 bytes an entry) plus INDEX_BYTES. Calibrated on
 * heap growth (heapUsed + arrayBuffers after GC) over many workspaces: 3.4 KB measured for one
 * memory (estimate 3.4), 8.7 KB for a star of 20 memories (8.2), 167 KB for 1,000 memories and
 * 999 edges (174).
 */
export function estimateBytes(index: WorkspaceIndex): number {
  let arrays = 0;
  for (const array of [
    index.nodeRids,
    index.ids,
    index.from,
    index.to,
    index.type,
    index.weight,
    index.rids,
    index.outOffsets,
    index.outList,
    index.outOther,
    index.inOffsets,
    index.inList,
    index.inOther,
    index.overridden,
  ]) {
    if (array.length > 0 && array !== ZERO_OFFSETS) arrays += ARRAY_BYTES + array.byteLength;
  }
  let overrideEntries = 0;
  for (const list of index.overrideOut.values()) overrideEntries += list.length + 4;
  for (const list of index.overrideIn.values()) overrideEntries += list.length + 4;
  return (
    INDEX_BYTES +
    arrays +
    index.nodeIds.length * NODE_BYTES +
    (index.overlaySlotOf.size +
      index.oddIds.size +
      index.typeOf.size +
      index.overrideOut.size +
      index.overrideIn.size) *
      ENTRY_BYTES +
    overrideEntries * 8
  );
}
