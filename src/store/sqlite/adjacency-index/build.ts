import type Database from 'better-sqlite3';
import { compareIds } from '../../key-order.js';
import { ID_WORDS } from './id-packing.js';
import { EDGE_BYTES } from './memory-estimate.js';
import { asRid, NO_INT32 } from './slot-arrays.js';
import type { WorkspaceIndex } from './workspace-index.js';

/**
 * Rows read per step of a build. A page's rows (~250 bytes each) are garbage once copied; at 50k
 * rows a page outlived young-generation collections and piled up in the old generation, tripling
 * the heap a build peaked at.
 */
const PAGE = 10_000;

export interface BuildStatements {
  maxSeq: Database.Statement;
  maxRid: Database.Statement;
  countEdges: Database.Statement;
  nodes: Database.Statement;
  edgesPage: Database.Statement;
}

export const buildStatements = (connection: Database.Database): BuildStatements => ({
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

/**
 * The steps of a build, reading from `s` inside one read transaction held by the caller, so the
 * log position, the memories and the edges all come from one snapshot. Yields between pages.
 */
export function* buildSteps(
  s: BuildStatements,
  workspace: string,
  index: WorkspaceIndex,
  maxBytes: number,
  onTooLarge: (workspace: string, seq: number) => void,
): Generator<void, boolean> {
  index.cursor = (s.maxSeq.get() as number | null | undefined) ?? 0;
  index.maxRid = (s.maxRid.get() as number | null) ?? 0;
  const count = s.countEdges.get(workspace) as number;
  if (count * EDGE_BYTES > maxBytes) {
    onTooLarge(workspace, index.cursor);
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
  for (let node = 0; node < index.nodeIds.length; node++) nodeOf.set(index.nodeIds[node] as string, node);
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
      if (type === undefined) {
        type = index.typeOf.size;
        index.typeOf.set(typeName, type);
      }
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
    for (let node = 0; node < n; node++) offsets[node + 1] = (offsets[node + 1] as number) + (offsets[node] as number);
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
  fillOthers(index, true);
  fillOthers(index, false);
  index.builds++;
}

/** Fills the other ends of a whole CSR list. */
function fillOthers(index: WorkspaceIndex, out: boolean): void {
  const list = out ? index.outList : index.inList;
  const other = out ? index.outOther : index.inOther;
  const ends = out ? index.to : index.from;
  for (let k = 0; k < list.length; k++) other[k] = ends[list[k] as number] as number;
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
