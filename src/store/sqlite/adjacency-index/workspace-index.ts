import { compareIds } from '../../key-order.js';
import type { WalkScratch } from '../walk-scratch.js';
import { compareWords, ID_WORDS, packId, unpackId } from './id-packing.js';
import { Lists } from './lists.js';
import { EMPTY, grow, NO_FLOAT64, NO_INT32, NO_UINT8, NO_UINT16, NO_UINT32, ZERO_OFFSETS } from './slot-arrays.js';

/**
 * One workspace's edges as typed arrays (see index.ts for the layout) and the reads a walk makes
 * of them. Building fills it (build.ts), catching up patches it (catch-up.ts).
 */
export class WorkspaceIndex {
  constructor(private readonly scratch: WalkScratch) {}

  // nodes
  nodeIds: string[] = [];
  /** Memory rowid of each base node (0 past the base: nodes added later are looked up by id). */
  nodeRids: Int32Array = NO_INT32;
  nodeOf = new Map<string, number>();
  baseNodes = 0;
  // slots: `ids` holds each slot's packed id (see id-packing.ts), `oddIds` the ids that do not pack
  ids: Uint32Array = NO_UINT32;
  oddIds = new Map<number, string>();
  overlaySlotOf = new Map<string, number>();
  baseSlots = 0;
  slotCount = 0;
  from: Int32Array = NO_INT32;
  to: Int32Array = NO_INT32;
  type: Uint16Array = NO_UINT16;
  weight: Float64Array = NO_FLOAT64;
  /** Edge rowid of each slot; 0 for one past 2^31 (then it is read by id). */
  rids: Int32Array = NO_INT32;
  typeOf = new Map<string, number>();
  // adjacency (base CSR) and per-node overrides. Next to each list entry's slot sits a copy of
  // its other end, so a walk reads its lists front to back. Weights are not copied: a list is
  // sorted strongest first, so the entries above a threshold are a prefix, found by binary search.
  outOffsets: Int32Array = ZERO_OFFSETS;
  outList: Int32Array = NO_INT32;
  outOther: Int32Array = NO_INT32;
  inOffsets: Int32Array = ZERO_OFFSETS;
  inList: Int32Array = NO_INT32;
  inOther: Int32Array = NO_INT32;
  overridden: Uint8Array = NO_UINT8;
  overrideOut = new Map<number, number[]>();
  overrideIn = new Map<number, number[]>();
  maxListLength = 0;
  // coherence: the last change-log seq applied, and the largest edge rowid seen
  cursor = 0;
  maxRid = 0;
  dataVersion = -1;
  ownWrites = -1;
  tombstones = 0;
  builtInMs = 0;
  builds = 0;
  catchUps = 0;

  // buffers for walks: the store's shared WalkScratch, sized by ensureScratch
  get scratchSlots(): Int32Array {
    return this.scratch.slots;
  }
  get scratchOther(): Int32Array {
    return this.scratch.other;
  }
  get scratchOutgoing(): Uint8Array {
    return this.scratch.outgoing;
  }
  get seenF(): Int32Array {
    return this.scratch.seenF;
  }
  get seenB(): Int32Array {
    return this.scratch.seenB;
  }
  get parentF(): Int32Array {
    return this.scratch.parentF;
  }
  get parentB(): Int32Array {
    return this.scratch.parentB;
  }
  get viaF(): Int32Array {
    return this.scratch.viaF;
  }
  get viaB(): Int32Array {
    return this.scratch.viaB;
  }
  get frontierA(): Int32Array {
    return this.scratch.frontierA;
  }
  get frontierB(): Int32Array {
    return this.scratch.frontierB;
  }
  get frontierC(): Int32Array {
    return this.scratch.frontierC;
  }

  /** Strongest first, then edge id ascending; base slots are in id order, so ids compare as integers. */
  readonly compareSlots = (a: number, b: number): number => {
    const byWeight = (this.weight[b] as number) - (this.weight[a] as number);
    if (byWeight) return byWeight;
    if (a < this.baseSlots && b < this.baseSlots) return a - b;
    return this.compareIds(a, b);
  };

  /** The edge id of a slot, as a string: only for ids leaving the index. */
  idAt(slot: number): string {
    const odd = this.oddIds.size === 0 ? undefined : this.oddIds.get(slot);
    return odd ?? unpackId(this.ids, slot * ID_WORDS);
  }

  setId(slot: number, id: string): void {
    if (packId(id, this.ids, slot * ID_WORDS)) {
      if (this.oddIds.size !== 0) this.oddIds.delete(slot);
      return;
    }
    this.ids.fill(0, slot * ID_WORDS, (slot + 1) * ID_WORDS);
    this.oddIds.set(slot, id);
  }

  /** Edge id order of two slots, exactly as JavaScript orders the id strings. */
  readonly compareIds = (a: number, b: number): number => {
    if (this.oddIds.size === 0 || (!this.oddIds.has(a) && !this.oddIds.has(b)))
      return compareWords(this.ids, a * ID_WORDS, this.ids, b * ID_WORDS);
    return compareIds(this.idAt(a), this.idAt(b));
  };

  /** Node order = memory id order. */
  readonly compareNodes = (a: number, b: number): number =>
    a < this.baseNodes && b < this.baseNodes ? a - b : compareIds(this.nodeIds[a] as string, this.nodeIds[b] as string);

  get edgeCount(): number {
    return this.slotCount;
  }

  /** The slots of node `u`'s edges in one direction: a range of the CSR, or the node's override. */
  listOf(u: number, out: boolean): Int32Array | number[] {
    if (u < this.overridden.length && this.overridden[u])
      return (out ? this.overrideOut.get(u) : this.overrideIn.get(u)) ?? (EMPTY as number[]);
    return out ? this.outList : this.inList;
  }

  listStart(u: number, out: boolean): number {
    if (u < this.overridden.length && this.overridden[u]) return 0;
    return (out ? this.outOffsets : this.inOffsets)[u] as number;
  }

  listEnd(u: number, out: boolean): number {
    if (u < this.overridden.length && this.overridden[u]) return this.listOf(u, out).length;
    return (out ? this.outOffsets : this.inOffsets)[u + 1] as number;
  }

  /** How many edges node `u` has in the given lists, pruned or not: an upper bound on its steps. */
  degree(u: number, lists: Lists): number {
    if (u < 0) return 0;
    let total = 0;
    if (lists & Lists.Out) total += this.listEnd(u, true) - this.listStart(u, true);
    if (lists & Lists.In) total += this.listEnd(u, false) - this.listStart(u, false);
    return total;
  }

  /**
   * Writes the qualifying edges of node `u` into the scratch buffers in emission order (strongest
   * first, then edge id; for BOTH, the two sorted lists merged) and returns how many.
   */
  collect(
    u: number,
    lists: Lists,
    threshold: number,
    typeMask: Uint8Array | null,
    atLeast = Number.NEGATIVE_INFINITY,
    limit = Number.POSITIVE_INFINITY,
  ): number {
    if (u < 0) return 0;
    const slots = this.scratchSlots;
    const others = this.scratchOther;
    const outgoing = this.scratchOutgoing;
    const { weight, type, to, from, baseSlots } = this;
    const outArray = lists & Lists.Out ? this.listOf(u, true) : EMPTY;
    const inArray = lists & Lists.In ? this.listOf(u, false) : EMPTY;
    let i = lists & Lists.Out ? this.listStart(u, true) : 0;
    const iEnd = lists & Lists.Out ? this.passingEnd(outArray, i, this.listEnd(u, true), threshold, atLeast) : 0;
    let j = lists & Lists.In ? this.listStart(u, false) : 0;
    const jEnd = lists & Lists.In ? this.passingEnd(inArray, j, this.listEnd(u, false), threshold, atLeast) : 0;
    let count = 0;
    // Entries come strongest first, so the first `limit` that pass are the answer: a hub's top 20 cost 20 steps, not its degree.
    while ((i < iEnd || j < jEnd) && count < limit) {
      let slot: number;
      let other: number;
      let takeOut = j >= jEnd;
      if (!takeOut && i < iEnd) {
        const a = outArray[i] as number;
        const b = inArray[j] as number;
        const wa = weight[a] as number;
        const wb = weight[b] as number;
        takeOut = wa > wb || (wa === wb && (a < baseSlots && b < baseSlots ? a < b : this.compareSlots(a, b) < 0));
      }
      if (takeOut) {
        slot = outArray[i++] as number;
        other = to[slot] as number;
      } else {
        slot = inArray[j++] as number;
        other = from[slot] as number;
      }
      if (typeMask !== null && !typeMask[type[slot] as number]) continue;
      slots[count] = slot;
      others[count] = other;
      outgoing[count] = takeOut ? 1 : 0;
      count++;
    }
    return count;
  }

  /**
   * How many entries `collect` would find, without collecting them: without a type filter, the
   * length of the passing prefix of each list (a binary search), so a hub's degree costs
   * O(log degree); with one, a scan of the prefix.
   */
  countPassing(u: number, lists: Lists, threshold: number, typeMask: Uint8Array | null): number {
    if (u < 0) return 0;
    let count = 0;
    for (const outgoing of [true, false]) {
      if (!(lists & (outgoing ? Lists.Out : Lists.In))) continue;
      const [list, start, end] = this.passingRange(u, outgoing, threshold);
      if (typeMask === null) {
        count += end - start;
        continue;
      }
      const type = this.type;
      for (let at = start; at < end; at++) if (typeMask[type[list[at] as number] as number]) count++;
    }
    return count;
  }

  /**
   * Whether the entries `collect` would find weigh more than `cap` together, without collecting
   * them: each list's passing prefix is summed where it lies (no merge, no scratch), stopping once
   * past the cap, so a hub too heavy to spread over costs a few thousand additions, not a merge.
   */
  outweighs(u: number, lists: Lists, threshold: number, typeMask: Uint8Array | null, cap: number): boolean {
    if (u < 0) return false;
    const { type, weight } = this;
    let total = 0;
    for (const outgoing of [true, false]) {
      if (!(lists & (outgoing ? Lists.Out : Lists.In))) continue;
      const [list, start, end] = this.passingRange(u, outgoing, threshold);
      for (let at = start; at < end; at++) {
        const slot = list[at] as number;
        if (typeMask !== null && !typeMask[type[slot] as number]) continue;
        total += weight[slot] as number;
        if (total > cap) return true;
      }
    }
    return false;
  }

  /** Node u's list in one direction and the bounds of its entries above `threshold`, strongest first. */
  private passingRange(u: number, outgoing: boolean, threshold: number): [Int32Array | number[], number, number] {
    const list = this.listOf(u, outgoing);
    const start = this.listStart(u, outgoing);
    return [list, start, this.passingEnd(list, start, this.listEnd(u, outgoing), threshold, Number.NEGATIVE_INFINITY)];
  }

  /**
   * The end of the entries of list[start, end) with weight > threshold and >= atLeast: a prefix,
   * since every list is sorted strongest first (tombstones, -Infinity, last).
   */
  passingEnd(
    list: Int32Array | readonly number[],
    start: number,
    end: number,
    threshold: number,
    atLeast: number,
  ): number {
    const weight = this.weight;
    if (start === end) return end;
    let w = weight[list[end - 1] as number] as number;
    if (w > threshold && w >= atLeast) return end;
    let low = start;
    let high = end - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      w = weight[list[middle] as number] as number;
      if (w > threshold && w >= atLeast) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  typeMaskFor(types: readonly string[] | null): Uint8Array | null {
    if (types === null) return null;
    const mask = new Uint8Array(this.typeOf.size + 1);
    for (const name of types) {
      const index = this.typeOf.get(name);
      if (index !== undefined) mask[index] = 1;
    }
    return mask;
  }

  /** Reserves `count` visit stamps of the shared buffers (WalkScratch.stamps). */
  stamps(count: number): number {
    return this.scratch.stamps(count);
  }

  /** Sizes the shared walk buffers for this index; call before each walk. */
  ensureScratch(): void {
    this.scratch.fit(this.nodeIds.length, this.maxListLength);
  }

  /** The node of a memory id, appending it (after the id-ordered base range) when new. */
  nodeFor(id: string, withLists = true): number {
    let node = this.nodeOf.get(id);
    if (node === undefined) {
      node = this.nodeIds.length;
      this.nodeIds.push(id);
      this.nodeOf.set(id, node);
      if (withLists) {
        // A node added after the build has no CSR range: its lists live in the overrides.
        this.overridden = grow(this.overridden, node + 1);
        this.overridden[node] = 1;
        this.overrideOut.set(node, []);
        this.overrideIn.set(node, []);
      }
    }
    return node;
  }
}
