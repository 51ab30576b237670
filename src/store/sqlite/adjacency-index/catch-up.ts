import type Database from 'better-sqlite3';
import { compareIds } from '../../key-order.js';
import type { BuildStatements } from './build.js';
import { compareWords, ID_WORDS, packId, unpackId } from './id-packing.js';
import { asRid, grow, TOMBSTONE } from './slot-arrays.js';
import type { WorkspaceIndex } from './workspace-index.js';

/** Scratch for slotOf's packed key: lookups are synchronous. */
const KEY_WORDS = new Uint32Array(4);

export interface CatchUpStatements extends BuildStatements {
  minSeq: Database.Statement;
  changes: Database.Statement;
  newEdges: Database.Statement;
}

/** The change-log reads of a catch-up, beside the build's (which give the high-water marks). */
export const catchUpStatements = (db: Database.Database): Omit<CatchUpStatements, keyof BuildStatements> => ({
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

/** The edge slot with this id, in the overlay or by binary search of the id-ordered base; -1 when absent. */
function slotOf(index: WorkspaceIndex, edgeId: string): number {
  const overlay = index.overlaySlotOf.get(edgeId);
  if (overlay !== undefined) return overlay;
  const key = KEY_WORDS;
  const packed = packId(edgeId, key, 0);
  let low = 0;
  let high = index.baseSlots - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const odd = index.oddIds.size === 0 ? undefined : index.oddIds.get(middle);
    const order =
      odd === undefined && packed
        ? compareWords(index.ids, middle * ID_WORDS, key, 0)
        : compareIds(odd ?? unpackId(index.ids, middle * ID_WORDS), edgeId);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Gives node `u` its own copy of its lists, so they can change without touching the CSR. */
function override(index: WorkspaceIndex, u: number): void {
  if (index.overridden[u]) return;
  const copy = (out: boolean) => Array.from(index.listOf(u, out).slice(index.listStart(u, out), index.listEnd(u, out)));
  index.overrideOut.set(u, copy(true));
  index.overrideIn.set(u, copy(false));
  index.overridden[u] = 1;
}

/**
 * Moves `slot` to its place in a list of `u` after its weight changed. The rest of the list is
 * still in order, so this is one shift, not a sort: a hub's list can hold 100k slots.
 */
function reposition(index: WorkspaceIndex, u: number, out: boolean, slot: number): void {
  const patched = u < index.overridden.length && index.overridden[u] === 1;
  const list = index.listOf(u, out) as Int32Array | number[];
  const other = patched ? null : out ? index.outOther : index.inOther;
  const start = index.listStart(u, out);
  const end = index.listEnd(u, out);
  let at = start;
  while (at < end && list[at] !== slot) at++;
  if (at === end) return;
  const otherEnd = other === null ? 0 : (other[at] as number);
  const shift = (to: number, from: number) => {
    list[to] = list[from] as number;
    if (other !== null) other[to] = other[from] as number;
  };
  while (at > start && index.compareSlots(slot, list[at - 1] as number) < 0) {
    shift(at, at - 1);
    at--;
  }
  while (at + 1 < end && index.compareSlots(list[at + 1] as number, slot) < 0) {
    shift(at, at + 1);
    at++;
  }
  list[at] = slot;
  if (other !== null) other[at] = otherEnd;
}

function insertSorted(index: WorkspaceIndex, list: number[], slot: number): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (index.compareSlots(list[middle] as number, slot) < 0) low = middle + 1;
    else high = middle;
  }
  list.splice(low, 0, slot);
  if (list.length > index.maxListLength) index.maxListLength = list.length;
}

function setWeight(index: WorkspaceIndex, slot: number, weight: number): void {
  if (index.weight[slot] === weight) return;
  if (index.weight[slot] === TOMBSTONE) index.tombstones--;
  if (weight === TOMBSTONE) index.tombstones++;
  index.weight[slot] = weight;
  reposition(index, index.from[slot] as number, true, slot);
  reposition(index, index.to[slot] as number, false, slot);
}

function addSlot(
  index: WorkspaceIndex,
  edgeId: string,
  rid: number,
  fromId: string,
  toId: string,
  typeName: string,
  weight: number,
): void {
  const slot = index.slotCount++;
  const size = slot + 1;
  index.from = grow(index.from, size);
  index.to = grow(index.to, size);
  index.type = grow(index.type, size);
  index.weight = grow(index.weight, size);
  index.rids = grow(index.rids, size);
  index.rids[slot] = asRid(rid);
  index.ids = grow(index.ids, size * ID_WORDS);
  const fromNode = index.nodeFor(fromId);
  const toNode = index.nodeFor(toId);
  let type = index.typeOf.get(typeName);
  if (type === undefined) {
    type = index.typeOf.size;
    index.typeOf.set(typeName, type);
  }
  index.setId(slot, edgeId);
  index.overlaySlotOf.set(edgeId, slot);
  index.from[slot] = fromNode;
  index.to[slot] = toNode;
  index.type[slot] = type;
  index.weight[slot] = weight;
  override(index, fromNode);
  override(index, toNode);
  insertSorted(index, index.overrideOut.get(fromNode) as number[], slot);
  insertSorted(index, index.overrideIn.get(toNode) as number[], slot);
}

/** Brings one edge to its current state: `row` null means it no longer exists. */
function applyEdge(
  index: WorkspaceIndex,
  edgeId: string,
  row: { rid: number; from_id: string; to_id: string; type: string; weight: number } | null,
): void {
  const slot = slotOf(index, edgeId);
  if (row === null) {
    if (slot >= 0) setWeight(index, slot, TOMBSTONE);
    return;
  }
  if (
    slot >= 0 &&
    index.nodeIds[index.from[slot] as number] === row.from_id &&
    index.nodeIds[index.to[slot] as number] === row.to_id &&
    index.typeOf.get(row.type) === index.type[slot]
  ) {
    setWeight(index, slot, row.weight);
    return;
  }
  if (slot >= 0) {
    setWeight(index, slot, TOMBSTONE);
    if (slot >= index.baseSlots) index.overlaySlotOf.delete(edgeId);
  }
  addSlot(index, edgeId, row.rid, row.from_id, row.to_id, row.type, row.weight);
}

/** Changes since the build: past this share of the base, a rebuild is cheaper than patching. */
function needsRebuild(index: WorkspaceIndex): boolean {
  const drift = index.slotCount - index.baseSlots + index.tombstones;
  return drift > Math.max(2_000, index.baseSlots * 0.2);
}

/**
 * Brings the index up to date in one read transaction (one snapshot): logged deletions and
 * changes after its seq, then edges with a rowid above the largest it has seen (new edges; a
 * logged deletion lowers that mark, in case its rowid was reused). False when a rebuild is the
 * better (or only) way: the log was pruned past it, too much changed, or a bulk import ran.
 */
export function catchUp(
  db: Database.Database,
  s: CatchUpStatements,
  workspace: string,
  index: WorkspaceIndex,
): boolean {
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
      applyEdge(
        index,
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
      applyEdge(index, row.id, row);
    }
    index.cursor = Math.max(index.cursor, rows.length > 0 ? (rows[rows.length - 1]?.seq as number) : 0);
    index.maxRid = Math.max(index.maxRid, ridNow);
    index.catchUps++;
    return !needsRebuild(index);
  })();
}
