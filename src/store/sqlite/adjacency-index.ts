import Database from 'better-sqlite3';
import type { Direction, FrontierStep } from '../../domain/types.js';
import type { AdjacencyQuery, DegreeQuery, FrontierExpansion, FrontierQuery, PathSearchOutcome } from '../port.js';
import { compareIds } from '../key-order.js';
import { LruByBytes } from './lru-by-bytes.js';
import { WalkScratch } from './walk-scratch.js';

/**
 * In-process adjacency index for the SQLite store: the edges of a workspace held as CSR-like
 * typed arrays, so walks, neighbor selection and degrees read memory instead of running SQL.
 *
 * Layout (one per workspace, built on first use):
 * - nodes: every memory id of the workspace, read in id order, so a node's number is its rank in
 *   JavaScript string order (the order `path` breaks ties by), with its rowid; memories that
 *   appear later are appended after that base range and compared as strings.
 * - slots: one per edge, read in edge-id order (so "edge id asc" is an integer compare), with
 *   parallel typed arrays from, to, type, weight, rowid and the edge id packed in 16 bytes (see packId;
 *   an id not shaped like the UUIDs Engram makes is kept as a string instead). A deleted edge
 *   keeps its slot with weight -Infinity, a tombstone that fails every `weight > threshold` test.
 * - adjacency: CSR offsets and slot lists for both directions, each list sorted strongest first
 *   (weight desc, then edge id asc): steps come out in the order path and neighbors use, and a
 *   hub's top 20 cost 20, and the entries above a weight threshold are a prefix. Next to each
 *   entry sits a copy of its other end, so a walk reads its lists front to back. A node an edge
 *   was added to after the build gets its own list (an override) instead of its CSR range.
 * - search: findShortestPath's algorithm (services/walks.ts) on integers, with the same answer
 *   and tie-breaking, and visit stamps instead of cleared arrays; see `search`.
 *
 * Coherence with writes from this process and from others:
 * - Signals, checked before every use: `PRAGMA data_version` changes only when ANOTHER connection
 *   commits; a counter bumped by every write method of this store (`noteWrite`) covers this one.
 *   Neither moved: the index is current, at the cost of one pragma call.
 * - Otherwise the index catches up in one read transaction: new edges are those with a rowid above
 *   the largest it has seen; deletions (with their rowid, in case it is reused) and changes of an
 *   edge's weight, ends or type are appended to `edge_changes` by triggers, for any writer and for
 *   cascades from a deleted memory (migrations.ts), and read after the index's last seq. Slots are
 *   patched in place. Too much change, a log pruned past the index, or a bulk import (which logs
 *   its workspace as changed wholesale) make it rebuild instead.
 * - Small workspaces build at once; large ones on a second read-only connection a page per
 *   event-loop turn, while walks are served by SQL (or `warm` waits for it, e.g. at start-up).
 * - Writers prune the log to its newest LOG_KEEP rows.
 *
 * Memory: each index is sized to what it holds (a workspace of one memory costs about 3.4 KB,
 * see `bytes`); indexes are dropped least recently used past `maxBytes` in all, and when unused
 * for `idleMs`; the walk buffers are one set per store (walk-scratch.ts). A dropped index is
 * built again by the next walk that needs it.
 */

/** Newest change-log rows kept; a reader further behind than this rebuilds its index. */
export const LOG_KEEP = 50_000;

/** Workspaces remembered as too large to index (so a walk does not retry the build each time). */
const TOO_LARGE_KEPT = 1_000;

export interface AdjacencyIndexOptions {
  /**
   * Most memory (estimated bytes, see WorkspaceIndex.bytes) held by indexes across all workspaces:
   * past it the least recently used index is dropped first, and a workspace whose index alone
   * would not fit is walked with SQL. About 67 bytes per edge and 150 per memory (63 per edge all
   * told measured for 1M edges between 100k memories, before rowids added 4 per edge and memory).
   */
  maxBytes: number;
  /** An index unused this long is dropped (checked on use of any index, at most once a second). */
  idleMs: number;
  /**
   * A workspace with more edges than this is indexed on a second connection, a page per event-loop
   * turn, while walks are served by SQL; smaller ones are indexed at once by the walk that needs it.
   */
  backgroundAbove: number;
}

export interface AdjacentSelection {
  edgeId: string;
  otherId: string;
  direction: 'OUTGOING' | 'INCOMING';
  /**
   * Rowids of the edge and of the other end's memory, so the caller reads both rows by primary
   * key instead of through the (workspace, id) indexes; 0 when unknown. A memory's rowid can be
   * stale (the index does not hear of a memory deleted and created again), so a reader checks the
   * id of the row it gets.
   */
  edgeRid: number;
  otherRid: number;
}

export const DEFAULT_ADJACENCY_INDEX_OPTIONS: AdjacencyIndexOptions = {
  maxBytes: 1024 * 1024 * 1024,
  idleMs: 10 * 60_000,
  backgroundAbove: 5_000,
};

/** Least estimated bytes an edge costs in an index: a workspace with more edges than maxBytes / this is not indexed. */
const EDGE_BYTES = 60;
/** Estimated bytes of a node beyond its typed-array entries: its id string, its nodeIds slot and its nodeOf entry. */
const NODE_BYTES = 100;
/** Estimated bytes of one Map entry with a short key (overlay slots, odd ids, types). */
const ENTRY_BYTES = 80;
/** Estimated bytes of a typed array beyond its elements (its object and buffer). */
const ARRAY_BYTES = 150;
/** Estimated bytes of an index before it holds anything: the object, its six maps, its closures. */
const INDEX_BYTES = 2700;

export interface AdjacencyIndex {
  /** Every unpruned edge leaving the given memories, from memory; null when this workspace is not indexed. */
  expandFrontier(workspace: string, memoryIds: readonly string[], query: FrontierQuery): FrontierExpansion | null;
  /**
   * For each memory, the edges getAdjacent lists (strongest first, then edge id; filtered and cut
   * per memory as the query says), as (edge id, other end, direction, rowids); the caller reads the
   * records. Null when not indexed.
   */
  selectAdjacent(workspace: string, memoryIds: readonly string[], query: AdjacencyQuery): AdjacentSelection[][] | null;
  /** countAdjacent from memory; null when not indexed. */
  countAdjacent(workspace: string, memoryIds: readonly string[], query: DegreeQuery): number[] | null;
  /** The shortest path exactly as findShortestPath over expandFrontier finds it; null when not indexed. */
  shortestPath(
    workspace: string,
    fromId: string,
    toId: string,
    maxHops: number,
    query: FrontierQuery,
  ): PathSearchOutcome | null;
  /** Tells the index this connection committed (or tried to commit) a write: the next read catches up. */
  noteWrite(): void;
  /** Builds (or finishes building) the workspace's index now; false when it cannot be indexed. */
  warm(workspace: string): Promise<boolean>;
  /** Statistics for logs and benchmarks. */
  stats(workspace: string): {
    nodes: number;
    slots: number;
    overlaySlots: number;
    bytes: number;
    builtInMs: number;
    builds: number;
    catchUps: number;
  } | null;
  /** Every index held: how many, their estimated bytes plus the walk buffers', and the cap. */
  totals(): { indexes: number; bytes: number; maxBytes: number };
  /** Drops every index and stops background builds (on close). */
  clear(): void;
}

const TOMBSTONE = Number.NEGATIVE_INFINITY;
const EMPTY: readonly number[] = [];

/** Shared by every index that has nothing to put in an array: writing past the end of a typed array does nothing. */
const NO_INT32 = new Int32Array(0);
const NO_UINT32 = new Uint32Array(0);
const NO_UINT16 = new Uint16Array(0);
const NO_UINT8 = new Uint8Array(0);
const NO_FLOAT64 = new Float64Array(0);
const ZERO_OFFSETS = new Int32Array(1);
/** Scratch for slotOf's packed key: lookups are synchronous. */
const KEY_WORDS = new Uint32Array(4);

/** One direction of expansion: which lists to read. */
enum Lists {
  Out = 1,
  In = 2,
  Both = 3,
}

const listsFor = (direction: Direction): Lists =>
  direction === 'OUTGOING' ? Lists.Out : direction === 'INCOMING' ? Lists.In : Lists.Both;
const reverse = (lists: Lists): Lists => (lists === Lists.Out ? Lists.In : lists === Lists.In ? Lists.Out : Lists.Both);

/**
 * Grows by a quarter, not double: slot arrays of a 10M-edge index hold ~340 MB, and a rebuild
 * comes before the overlay reaches a fifth of the base anyway.
 */
function grow<T extends Int32Array | Uint32Array | Float64Array | Uint16Array | Uint8Array>(array: T, size: number): T {
  if (array.length >= size) return array;
  const bigger = new (array.constructor as new (length: number) => T)(
    Math.max(size, array.length + (array.length >> 2), 16),
  );
  bigger.set(array);
  return bigger;
}

// Edge ids are packed, 4 words a slot: as strings they would cost ~70 bytes each, more than the
// rest of the slot. Ids Engram makes are canonical lowercase UUIDs (8-4-4-4-12 hex); for those,
// comparing the words as unsigned big-endian integers is comparing the strings. Any other id is
// kept as a string beside its slot.
const ID_WORDS = 4;
const DASH = 0x2d;
const HEX_CODE = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/** Packs a canonical lowercase UUID into words[at, at + 4); false (words unspecified) for any other string. */
function packId(id: string, words: Uint32Array, at: number): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let k = 0; k < 36; k++) {
    const code = id.charCodeAt(k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (code !== DASH) return false;
      continue;
    }
    let nibble: number;
    if (code >= 0x30 && code <= 0x39) nibble = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) nibble = code - 0x57;
    else return false;
    word = (word << 4) | nibble;
    if (++digits === 8) {
      words[at++] = word;
      word = 0;
      digits = 0;
    }
  }
  return true;
}

const digit = (word: number, shift: number): number => HEX_CODE[(word >>> shift) & 15] as number;

/** One flat string in one call: concatenating pieces costs ~2 µs an id in rope nodes and flattening. */
function unpackId(words: Uint32Array, at: number): string {
  const a = words[at] as number;
  const b = words[at + 1] as number;
  const c = words[at + 2] as number;
  const d = words[at + 3] as number;
  return String.fromCharCode(
    digit(a, 28),
    digit(a, 24),
    digit(a, 20),
    digit(a, 16),
    digit(a, 12),
    digit(a, 8),
    digit(a, 4),
    digit(a, 0),
    DASH,
    digit(b, 28),
    digit(b, 24),
    digit(b, 20),
    digit(b, 16),
    DASH,
    digit(b, 12),
    digit(b, 8),
    digit(b, 4),
    digit(b, 0),
    DASH,
    digit(c, 28),
    digit(c, 24),
    digit(c, 20),
    digit(c, 16),
    DASH,
    digit(c, 12),
    digit(c, 8),
    digit(c, 4),
    digit(c, 0),
    digit(d, 28),
    digit(d, 24),
    digit(d, 20),
    digit(d, 16),
    digit(d, 12),
    digit(d, 8),
    digit(d, 4),
    digit(d, 0),
  );
}

function compareWords(a: Uint32Array, at: number, b: Uint32Array, bt: number): number {
  for (let k = 0; k < ID_WORDS; k++) {
    const x = a[at + k] as number;
    const y = b[bt + k] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

class WorkspaceIndex {
  constructor(private readonly scratch: WalkScratch) {}

  // nodes
  nodeIds: string[] = [];
  /** Memory rowid of each base node (0 past the base: nodes added later are looked up by id). */
  nodeRids: Int32Array = NO_INT32;
  nodeOf = new Map<string, number>();
  baseNodes = 0;
  // slots: `ids` holds each slot's packed id (see packId), `oddIds` the ids that do not pack
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

  /**
   * Estimated memory held: the arrays' elements exactly, everything else per item (ARRAY_BYTES,
   * NODE_BYTES, ENTRY_BYTES, override lists at 8 bytes an entry) plus INDEX_BYTES. Calibrated on
   * heap growth (heapUsed + arrayBuffers after GC) over many workspaces: 3.4 KB measured for one
   * memory (estimate 3.4), 8.7 KB for a star of 20 memories (8.2), 167 KB for 1,000 memories and
   * 999 edges (174).
   */
  get bytes(): number {
    let arrays = 0;
    for (const array of [
      this.nodeRids,
      this.ids,
      this.from,
      this.to,
      this.type,
      this.weight,
      this.rids,
      this.outOffsets,
      this.outList,
      this.outOther,
      this.inOffsets,
      this.inList,
      this.inOther,
      this.overridden,
    ]) {
      if (array.length > 0 && array !== ZERO_OFFSETS) arrays += ARRAY_BYTES + array.byteLength;
    }
    let overrideEntries = 0;
    for (const list of this.overrideOut.values()) overrideEntries += list.length + 4;
    for (const list of this.overrideIn.values()) overrideEntries += list.length + 4;
    return (
      INDEX_BYTES +
      arrays +
      this.nodeIds.length * NODE_BYTES +
      (this.overlaySlotOf.size + this.oddIds.size + this.typeOf.size + this.overrideOut.size + this.overrideIn.size) *
        ENTRY_BYTES +
      overrideEntries * 8
    );
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
      const list = this.listOf(u, outgoing);
      const start = this.listStart(u, outgoing);
      const end = this.passingEnd(list, start, this.listEnd(u, outgoing), threshold, Number.NEGATIVE_INFINITY);
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

  // ---- patching (catch-up) -------------------------------------------------------------------

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

  slotOf(edgeId: string): number {
    const overlay = this.overlaySlotOf.get(edgeId);
    if (overlay !== undefined) return overlay;
    const key = KEY_WORDS;
    const packed = packId(edgeId, key, 0);
    let low = 0;
    let high = this.baseSlots - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const odd = this.oddIds.size === 0 ? undefined : this.oddIds.get(middle);
      const order =
        odd === undefined && packed
          ? compareWords(this.ids, middle * ID_WORDS, key, 0)
          : compareIds(odd ?? unpackId(this.ids, middle * ID_WORDS), edgeId);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Gives node `u` its own copy of its lists, so they can change without touching the CSR. */
  override(u: number): void {
    if (this.overridden[u]) return;
    const copy = (out: boolean) => Array.from(this.listOf(u, out).slice(this.listStart(u, out), this.listEnd(u, out)));
    this.overrideOut.set(u, copy(true));
    this.overrideIn.set(u, copy(false));
    this.overridden[u] = 1;
  }

  /**
   * Moves `slot` to its place in a list of `u` after its weight changed. The rest of the list is
   * still in order, so this is one shift, not a sort: a hub's list can hold 100k slots.
   */
  reposition(u: number, out: boolean, slot: number): void {
    const patched = u < this.overridden.length && this.overridden[u] === 1;
    const list = this.listOf(u, out) as Int32Array | number[];
    const other = patched ? null : out ? this.outOther : this.inOther;
    const start = this.listStart(u, out);
    const end = this.listEnd(u, out);
    let at = start;
    while (at < end && list[at] !== slot) at++;
    if (at === end) return;
    const otherEnd = other === null ? 0 : (other[at] as number);
    const shift = (to: number, from: number) => {
      list[to] = list[from] as number;
      if (other !== null) other[to] = other[from] as number;
    };
    while (at > start && this.compareSlots(slot, list[at - 1] as number) < 0) {
      shift(at, at - 1);
      at--;
    }
    while (at + 1 < end && this.compareSlots(list[at + 1] as number, slot) < 0) {
      shift(at, at + 1);
      at++;
    }
    list[at] = slot;
    if (other !== null) other[at] = otherEnd;
  }

  /** Fills the other ends of a whole CSR list. */
  fillOthers(out: boolean): void {
    const list = out ? this.outList : this.inList;
    const other = out ? this.outOther : this.inOther;
    const ends = out ? this.to : this.from;
    for (let k = 0; k < list.length; k++) other[k] = ends[list[k] as number] as number;
  }

  insertSorted(list: number[], slot: number): void {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compareSlots(list[middle] as number, slot) < 0) low = middle + 1;
      else high = middle;
    }
    list.splice(low, 0, slot);
    if (list.length > this.maxListLength) this.maxListLength = list.length;
  }

  setWeight(slot: number, weight: number): void {
    if (this.weight[slot] === weight) return;
    if (this.weight[slot] === TOMBSTONE) this.tombstones--;
    if (weight === TOMBSTONE) this.tombstones++;
    this.weight[slot] = weight;
    this.reposition(this.from[slot] as number, true, slot);
    this.reposition(this.to[slot] as number, false, slot);
  }

  addSlot(edgeId: string, rid: number, fromId: string, toId: string, typeName: string, weight: number): void {
    const slot = this.slotCount++;
    const size = slot + 1;
    this.from = grow(this.from, size);
    this.to = grow(this.to, size);
    this.type = grow(this.type, size);
    this.weight = grow(this.weight, size);
    this.rids = grow(this.rids, size);
    this.rids[slot] = asRid(rid);
    this.ids = grow(this.ids, size * ID_WORDS);
    const fromNode = this.nodeFor(fromId);
    const toNode = this.nodeFor(toId);
    let type = this.typeOf.get(typeName);
    if (type === undefined) this.typeOf.set(typeName, (type = this.typeOf.size));
    this.setId(slot, edgeId);
    this.overlaySlotOf.set(edgeId, slot);
    this.from[slot] = fromNode;
    this.to[slot] = toNode;
    this.type[slot] = type;
    this.weight[slot] = weight;
    this.override(fromNode);
    this.override(toNode);
    this.insertSorted(this.overrideOut.get(fromNode) as number[], slot);
    this.insertSorted(this.overrideIn.get(toNode) as number[], slot);
  }

  /** Brings one edge to its current state: `row` null means it no longer exists. */
  apply(
    edgeId: string,
    row: { rid: number; from_id: string; to_id: string; type: string; weight: number } | null,
  ): void {
    const slot = this.slotOf(edgeId);
    if (row === null) {
      if (slot >= 0) this.setWeight(slot, TOMBSTONE);
      return;
    }
    if (
      slot >= 0 &&
      this.nodeIds[this.from[slot] as number] === row.from_id &&
      this.nodeIds[this.to[slot] as number] === row.to_id &&
      this.typeOf.get(row.type) === this.type[slot]
    ) {
      this.setWeight(slot, row.weight);
      return;
    }
    if (slot >= 0) {
      this.setWeight(slot, TOMBSTONE);
      if (slot >= this.baseSlots) this.overlaySlotOf.delete(edgeId);
    }
    this.addSlot(edgeId, row.rid, row.from_id, row.to_id, row.type, row.weight);
  }

  /** Changes since the build: past this share of the base, a rebuild is cheaper than patching. */
  get needsRebuild(): boolean {
    const drift = this.slotCount - this.baseSlots + this.tombstones;
    return drift > Math.max(2_000, this.baseSlots * 0.2);
  }
}

interface Statements extends BuildStatements {
  dataVersion: Database.Statement;
  minSeq: Database.Statement;
  changes: Database.Statement;
  newEdges: Database.Statement;
}

/**
 * Rows read per step of a build. A page's rows (~250 bytes each) are garbage once copied; at 50k
 * rows a page outlived young-generation collections and piled up in the old generation, tripling
 * the heap a build peaked at.
 */
const PAGE = 10_000;

interface BuildStatements {
  maxSeq: Database.Statement;
  maxRid: Database.Statement;
  countEdges: Database.Statement;
  nodes: Database.Statement;
  edgesPage: Database.Statement;
}

const buildStatements = (connection: Database.Database): BuildStatements => ({
  // The high-water mark: the largest seq ever given, even if pruning removed its row.
  maxSeq: connection.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'edge_changes'").pluck(),
  maxRid: connection.prepare('SELECT max(rid) FROM edges').pluck(),
  countEdges: connection.prepare('SELECT count(*) FROM edges WHERE workspace = ?').pluck(),
  nodes: connection.prepare('SELECT id, rid FROM memories WHERE workspace = ? ORDER BY id').raw(),
  edgesPage: connection
    .prepare(
      'SELECT id, from_id, to_id, type, weight, rid FROM edges WHERE workspace = ? AND id > ? ORDER BY id LIMIT ?',
    )
    .raw(),
});

export function createAdjacencyIndex(
  db: Database.Database,
  options: AdjacencyIndexOptions = DEFAULT_ADJACENCY_INDEX_OPTIONS,
): AdjacencyIndex {
  let statements: Statements | null = null;
  const prepared = (): Statements =>
    (statements ??= {
      ...buildStatements(db),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      minSeq: db.prepare('SELECT min(seq) FROM edge_changes').pluck(),
      changes: db.prepare(
        `SELECT l.seq, l.edge_id, l.edge_rid, e.rid, e.from_id, e.to_id, e.type, e.weight
         FROM edge_changes l LEFT JOIN edges e ON e.workspace = l.workspace AND e.id = l.edge_id
         WHERE l.seq > ? AND l.workspace = ? ORDER BY l.seq`,
      ),
      // `+workspace` keeps SQLite on the rowid range (a workspace index would read every edge of it).
      newEdges: db.prepare(
        'SELECT id, rid, from_id, to_id, type, weight FROM edges WHERE rid > ? AND +workspace = ? ORDER BY rid',
      ),
    });

  /** Least recently used first, by estimated bytes (WorkspaceIndex.bytes). */
  const indexes = new LruByBytes<WorkspaceIndex>({ maxBytes: options.maxBytes, idleMs: options.idleMs });
  /** The walk buffers every index of this store shares. */
  const scratch = new WalkScratch();
  /** Builds running on their own connection, by workspace. */
  const building = new Map<string, Promise<void>>();
  /** Workspaces found too large to index, with the seq at which that was checked; the oldest are forgotten past TOO_LARGE_KEPT. */
  const tooLarge = new Map<string, number>();
  const markTooLarge = (workspace: string, seq: number): void => {
    tooLarge.delete(workspace);
    if (tooLarge.size >= TOO_LARGE_KEPT) tooLarge.delete(tooLarge.keys().next().value as string);
    tooLarge.set(workspace, seq);
  };
  let ownWrites = 0;
  let closed = false;

  /**
   * The steps of a build, reading from `s` inside one read transaction held by the caller, so the
   * log position, the memories and the edges all come from one snapshot. Yields between pages.
   */
  function* buildSteps(s: BuildStatements, workspace: string, index: WorkspaceIndex): Generator<void, boolean> {
    index.cursor = (s.maxSeq.get() as number | null | undefined) ?? 0;
    index.maxRid = (s.maxRid.get() as number | null) ?? 0;
    const count = s.countEdges.get(workspace) as number;
    if (count * EDGE_BYTES > options.maxBytes) {
      markTooLarge(workspace, index.cursor);
      return false;
    }
    // SQLite orders by bytes and JavaScript by UTF-16 units; they differ only for rare non-BMP
    // text, and then the arrays are put in JavaScript order after loading.
    const nodes = s.nodes.all(workspace) as [string, number][];
    index.nodeIds = nodes.map(([id]) => id);
    if (!isSorted(index.nodeIds)) {
      nodes.sort(([a], [b]) => compareIds(a, b));
      index.nodeIds = nodes.map(([id]) => id);
    }
    index.nodeRids = Int32Array.from(nodes, ([, rid]) => asRid(rid));
    const nodeOf = index.nodeOf;
    index.nodeIds.forEach((id, node) => nodeOf.set(id, node));
    index.baseNodes = index.nodeIds.length;
    // Room for a sixteenth more edges added after the build, so the first ones do not copy every
    // array; a workspace without edges keeps the shared empty arrays.
    const capacity = count + (count >> 4);
    if (capacity > 0) {
      index.from = new Int32Array(capacity);
      index.to = new Int32Array(capacity);
      index.type = new Uint16Array(capacity);
      index.weight = new Float64Array(capacity);
      index.rids = new Int32Array(capacity);
      index.ids = new Uint32Array(capacity * ID_WORDS);
    }
    // Pages go straight into the typed arrays: no row outlives its page.
    let m = 0;
    let inOrder = true;
    let previous = '';
    let after = '';
    for (;;) {
      yield;
      const page = s.edgesPage.all(workspace, after, PAGE) as [string, string, string, string, number, number][];
      for (const [id, fromId, toId, typeName, weight, rid] of page) {
        if (m === capacity) break;
        if (m > 0 && !(previous < id)) inOrder = false;
        previous = id;
        index.setId(m, id);
        // Foreign keys guarantee both ends exist; nodeFor covers a database written without them.
        index.from[m] = nodeOf.get(fromId) ?? index.nodeFor(fromId, false);
        index.to[m] = nodeOf.get(toId) ?? index.nodeFor(toId, false);
        let type = index.typeOf.get(typeName);
        if (type === undefined) index.typeOf.set(typeName, (type = index.typeOf.size));
        index.type[m] = type;
        index.weight[m] = weight;
        index.rids[m] = asRid(rid);
        m++;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]?.[0] as string;
    }
    if (!inOrder) putInIdOrder(index, m);
    yield;
    fill(index, m);
    return true;
  }

  /** Builds on this connection, blocking: for small workspaces, in-memory databases and warm-ups. */
  function buildNow(workspace: string, dataVersion: number): WorkspaceIndex | null {
    const started = performance.now();
    const index = new WorkspaceIndex(scratch);
    const steps = buildSteps(prepared(), workspace, index);
    const ok = db.transaction(() => {
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value;
      }
    })();
    if (!ok) return null;
    index.dataVersion = dataVersion;
    index.ownWrites = ownWrites;
    index.builtInMs = performance.now() - started;
    return install(workspace, index);
  }

  /**
   * Builds on a second, read-only connection, a page per event-loop turn, so requests keep being
   * served (walks by SQL) meanwhile. The new index starts behind: its first use catches up from
   * the log position of its snapshot.
   */
  function buildInBackground(workspace: string): Promise<void> {
    let pending = building.get(workspace);
    if (pending) return pending;
    pending = (async () => {
      const started = performance.now();
      const reader = new Database(db.name, { readonly: true, fileMustExist: true });
      try {
        reader.pragma('cache_size = -16384');
        const index = new WorkspaceIndex(scratch);
        const steps = buildSteps(buildStatements(reader), workspace, index);
        reader.exec('BEGIN');
        let ok: boolean;
        try {
          for (;;) {
            const step = steps.next();
            if (step.done) {
              ok = step.value;
              break;
            }
            await new Promise((resume) => setImmediate(resume));
            if (closed) return;
          }
        } finally {
          reader.exec('COMMIT');
        }
        if (!ok || closed) return;
        index.builtInMs = performance.now() - started;
        install(workspace, index);
      } finally {
        reader.close();
        building.delete(workspace);
      }
    })();
    building.set(workspace, pending);
    // A failed build leaves the workspace to SQL; the next walk tries again.
    pending.catch(() => undefined);
    return pending;
  }

  /** Keeps the index (dropping the least recently used past the cap); null when it alone is over the cap. */
  function install(workspace: string, index: WorkspaceIndex): WorkspaceIndex | null {
    if (indexes.set(workspace, index, index.bytes)) return index;
    markTooLarge(workspace, index.cursor);
    return null;
  }

  /** Builds the adjacency lists over the m slots loaded, in edge-id order. */
  function fill(index: WorkspaceIndex, m: number): void {
    index.baseSlots = m;
    index.slotCount = m;
    const n = index.nodeIds.length;
    if (n > 0) index.overridden = new Uint8Array(n);
    const csr = (ends: Int32Array): { offsets: Int32Array; list: Int32Array } => {
      const offsets = new Int32Array(n + 1);
      for (let slot = 0; slot < m; slot++) {
        const at = (ends[slot] as number) + 1;
        offsets[at] = (offsets[at] as number) + 1;
      }
      for (let node = 0; node < n; node++)
        offsets[node + 1] = (offsets[node + 1] as number) + (offsets[node] as number);
      const fillAt = offsets.slice(0, n);
      const list = m > 0 ? new Int32Array(m) : NO_INT32;
      // Slots go in ascending order, so each node's list starts sorted by edge id; a stable
      // sort by weight then gives (weight desc, id asc).
      for (let slot = 0; slot < m; slot++) {
        const end = ends[slot] as number;
        list[fillAt[end] as number] = slot;
        fillAt[end] = (fillAt[end] as number) + 1;
      }
      for (let node = 0; node < n; node++) {
        const start = offsets[node] as number;
        const end = offsets[node + 1] as number;
        if (end - start > index.maxListLength) index.maxListLength = end - start;
        if (end - start > 1) sortRange(list, start, end, index.weight);
      }
      return { offsets, list };
    };
    ({ offsets: index.outOffsets, list: index.outList } = csr(index.from));
    ({ offsets: index.inOffsets, list: index.inList } = csr(index.to));
    index.outOther = m > 0 ? new Int32Array(m) : NO_INT32;
    index.inOther = m > 0 ? new Int32Array(m) : NO_INT32;
    index.fillOthers(true);
    index.fillOthers(false);
    index.builds++;
  }

  /**
   * The workspace's index, current with every committed write; null when it is not indexed (too
   * large, or being built in the background): the caller then walks with SQL.
   */
  function current(workspace: string): WorkspaceIndex | null {
    const s = prepared();
    const dataVersion = s.dataVersion.get() as number;
    const index = indexes.get(workspace);
    // The hot path: nothing committed since the last look.
    if (index && index.dataVersion === dataVersion && index.ownWrites === ownWrites) return index;
    if (index) {
      const writesSeen = ownWrites;
      indexes.delete(workspace);
      if (catchUp(workspace, index)) {
        index.dataVersion = dataVersion;
        index.ownWrites = writesSeen;
        // Patches change its size: stored again with the new estimate.
        return install(workspace, index);
      }
    }
    if (building.has(workspace)) return null;
    const checkedAt = tooLarge.get(workspace);
    if (checkedAt !== undefined) {
      if (((s.maxSeq.get() as number | null | undefined) ?? 0) === checkedAt) return null;
      tooLarge.delete(workspace);
    }
    // Small workspaces build at once; so do in-memory databases, which no second connection can see.
    if (db.memory || (s.countEdges.get(workspace) as number) <= options.backgroundAbove)
      return buildNow(workspace, dataVersion);
    void buildInBackground(workspace);
    return null;
  }

  /**
   * Brings the index up to date in one read transaction (one snapshot): logged deletions and
   * changes after its seq, then edges with a rowid above the largest it has seen (new edges; a
   * logged deletion lowers that mark, in case its rowid was reused). False when a rebuild is the
   * better (or only) way: the log was pruned past it, too much changed, or a bulk import ran.
   */
  function catchUp(workspace: string, index: WorkspaceIndex): boolean {
    const s = prepared();
    return db.transaction((): boolean => {
      const limit = Math.max(2_000, index.baseSlots * 0.2);
      const newest = (s.maxSeq.get() as number | null | undefined) ?? 0;
      // Seqs are contiguous: a first row past cursor + 1 means rows this index needed were pruned.
      const oldest = (s.minSeq.get() as number | null) ?? newest + 1;
      if (oldest > index.cursor + 1 || newest - index.cursor > limit) return false;
      const ridNow = (s.maxRid.get() as number | null) ?? 0;
      if (ridNow - index.maxRid > limit) return false;
      const rows = s.changes.all(index.cursor, workspace) as {
        seq: number;
        edge_id: string | null;
        edge_rid: number | null;
        rid: number;
        from_id: string | null;
        to_id: string;
        type: string;
        weight: number;
      }[];
      if (rows.some((row) => row.edge_id === null)) return false;
      // Each row carries the edge's state now; applying the last row per edge is enough.
      const latest = new Map<string, (typeof rows)[number]>();
      let mark = index.maxRid;
      for (const row of rows) {
        latest.set(row.edge_id as string, row);
        if (row.from_id === null && row.edge_rid !== null) mark = Math.min(mark, row.edge_rid - 1);
      }
      for (const [edgeId, row] of latest) {
        index.apply(
          edgeId,
          row.from_id === null
            ? null
            : { rid: row.rid, from_id: row.from_id, to_id: row.to_id, type: row.type, weight: row.weight },
        );
      }
      for (const row of s.newEdges.iterate(mark, workspace) as Iterable<{
        id: string;
        rid: number;
        from_id: string;
        to_id: string;
        type: string;
        weight: number;
      }>) {
        index.apply(row.id, row);
      }
      index.cursor = Math.max(index.cursor, rows.length > 0 ? (rows[rows.length - 1]?.seq as number) : 0);
      index.maxRid = Math.max(index.maxRid, ridNow);
      index.catchUps++;
      return !index.needsRebuild;
    })();
  }

  return {
    expandFrontier(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      const lists = listsFor(query.direction);
      const mask = index.typeMaskFor(query.types);
      const steps: FrontierStep[] = [];
      const { nodeIds, weight, scratchSlots, scratchOther } = index;
      const seen = index.seenF;
      const stamp = index.stamps(1);
      for (const id of memoryIds) {
        const u = index.nodeOf.get(id);
        if (u === undefined || seen[u] === stamp) continue;
        seen[u] = stamp;
        const count = index.collect(u, lists, query.pruneThreshold, mask);
        for (let k = 0; k < count; k++) {
          if (steps.length === query.budget) return { steps, truncated: true };
          const slot = scratchSlots[k] as number;
          steps.push({
            from: id,
            to: nodeIds[scratchOther[k] as number] as string,
            edgeId: index.idAt(slot),
            weight: weight[slot] as number,
          });
        }
      }
      return { steps, truncated: false };
    },

    selectAdjacent(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      const lists = listsFor(query.direction);
      const mask = index.typeMaskFor(query.types);
      const threshold = query.includePruned ? Number.NEGATIVE_INFINITY : query.pruneThreshold;
      const atLeast = query.minWeight ?? Number.NEGATIVE_INFINITY;
      const limit = query.limitPerMemory ?? Number.POSITIVE_INFINITY;
      const { nodeIds, nodeRids, rids, scratchSlots, scratchOther, scratchOutgoing } = index;
      return memoryIds.map((id) => {
        const u = index.nodeOf.get(id);
        if (u === undefined) return [];
        const count = index.collect(u, lists, threshold, mask, atLeast, limit);
        const picked: AdjacentSelection[] = new Array(count);
        for (let k = 0; k < count; k++) {
          const slot = scratchSlots[k] as number;
          const other = scratchOther[k] as number;
          picked[k] = {
            edgeId: index.idAt(slot),
            otherId: nodeIds[other] as string,
            direction: scratchOutgoing[k] ? 'OUTGOING' : 'INCOMING',
            edgeRid: rids[slot] as number,
            otherRid: other < nodeRids.length ? (nodeRids[other] as number) : 0,
          };
        }
        return picked;
      });
    },

    countAdjacent(workspace, memoryIds, query) {
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      const lists = listsFor(query.direction);
      const mask = index.typeMaskFor(query.types);
      const threshold = query.includePruned ? Number.NEGATIVE_INFINITY : query.pruneThreshold;
      return memoryIds.map((id) => {
        const u = index.nodeOf.get(id);
        return u === undefined ? 0 : index.countPassing(u, lists, threshold, mask);
      });
    },

    shortestPath(workspace, fromId, toId, maxHops, query) {
      if (fromId === toId) return { found: true, memoryIds: [fromId], edgeIds: [] };
      const index = current(workspace);
      if (!index) return null;
      index.ensureScratch();
      return search(index, index.nodeOf.get(fromId) ?? -1, index.nodeOf.get(toId) ?? -1, maxHops, query);
    },

    noteWrite() {
      ownWrites++;
    },

    async warm(workspace) {
      if (current(workspace)) return true;
      const pending = building.get(workspace);
      if (pending) await pending;
      return current(workspace) !== null;
    },

    stats(workspace) {
      const index = indexes.peek(workspace);
      if (!index) return null;
      return {
        nodes: index.nodeIds.length,
        slots: index.slotCount,
        overlaySlots: index.slotCount - index.baseSlots,
        bytes: index.bytes,
        builtInMs: index.builtInMs,
        builds: index.builds,
        catchUps: index.catchUps,
      };
    },

    totals() {
      return { indexes: indexes.size, bytes: indexes.bytes + scratch.bytes, maxBytes: indexes.maxBytes };
    },

    clear() {
      closed = true;
      indexes.clear();
      tooLarge.clear();
    },
  };
}

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
function search(
  index: WorkspaceIndex,
  source: number,
  target: number,
  maxHops: number,
  query: FrontierQuery,
): PathSearchOutcome {
  const mask = index.typeMaskFor(query.types);
  const forwardLists = listsFor(query.direction);
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
    const lists = forward ? forwardLists : reverse(forwardLists);
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

/** Reorders the first m slots by edge id in JavaScript order (when SQLite's byte order differed). */
function putInIdOrder(index: WorkspaceIndex, m: number): void {
  const order = new Int32Array(m);
  for (let at = 0; at < m; at++) order[at] = at;
  order.sort(index.compareIds);
  const permute = <T extends Int32Array | Uint32Array | Uint16Array | Float64Array>(array: T, width = 1): void => {
    const copy = array.slice(0, m * width);
    for (let to = 0; to < m; to++) {
      const from = order[to] as number;
      for (let k = 0; k < width; k++) array[to * width + k] = copy[from * width + k] as number;
    }
  };
  permute(index.from);
  permute(index.to);
  permute(index.type);
  permute(index.weight);
  permute(index.rids);
  permute(index.ids, ID_WORDS);
  const odd = index.oddIds;
  index.oddIds = new Map();
  for (let to = 0; to < m; to++) {
    const id = odd.get(order[to] as number);
    if (id !== undefined) index.oddIds.set(to, id);
  }
}

/** A rowid as it fits an Int32Array slot: 0 (unknown, read by id) past 2^31 - 1. */
const asRid = (rid: number): number => (rid > 0 && rid <= 0x7fffffff ? rid : 0);

function isSorted(values: readonly string[]): boolean {
  for (let at = 1; at < values.length; at++) if (!((values[at - 1] as string) < (values[at] as string))) return false;
  return true;
}

/** Sorts list[start, end) by weight desc, keeping the existing (edge id) order among equal weights. */
function sortRange(list: Int32Array, start: number, end: number, weight: Float64Array): void {
  if (end - start <= 24) {
    for (let at = start + 1; at < end; at++) {
      const slot = list[at] as number;
      const w = weight[slot] as number;
      let hole = at;
      while (hole > start && (weight[list[hole - 1] as number] as number) < w) {
        list[hole] = list[hole - 1] as number;
        hole--;
      }
      list[hole] = slot;
    }
    return;
  }
  list.subarray(start, end).sort((a, b) => (weight[b] as number) - (weight[a] as number) || a - b);
}
