/**
 * The buffers a walk over an adjacency index works in: one set per store, shared by every
 * workspace's index. A walk runs synchronously from start to end, so no two use them at once, and
 * a workspace's index costs only what it holds (ten thousand small workspaces used to carry ten
 * thousand sets of buffers of at least 1,024 entries each). Visit stamps are shared as well, so a
 * stamp is never handed out twice while any array may hold it.
 */
export class WalkScratch {
  /** One entry per edge of the longest adjacency list walked (both directions of a node at once). */
  slots = new Int32Array(0);
  other = new Int32Array(0);
  outgoing = new Uint8Array(0);
  /** One entry per node of the largest index walked. */
  seenF = new Int32Array(0);
  seenB = new Int32Array(0);
  parentF = new Int32Array(0);
  parentB = new Int32Array(0);
  viaF = new Int32Array(0);
  viaB = new Int32Array(0);
  frontierA = new Int32Array(0);
  frontierB = new Int32Array(0);
  frontierC = new Int32Array(0);
  private stamp = 0;

  /** Grows the buffers (never shrinks them) to serve an index of `nodes` nodes whose longest list has `listLength` entries. */
  fit(nodes: number, listLength: number): void {
    if (this.slots.length < listLength * 2) {
      const size = listLength * 2 + 16;
      this.slots = new Int32Array(size);
      this.other = new Int32Array(size);
      this.outgoing = new Uint8Array(size);
    }
    if (this.seenF.length < nodes) {
      const size = Math.max(nodes + 16, Math.ceil(nodes * 1.1));
      this.seenF = new Int32Array(size);
      this.seenB = new Int32Array(size);
      this.parentF = new Int32Array(size);
      this.parentB = new Int32Array(size);
      this.viaF = new Int32Array(size);
      this.viaB = new Int32Array(size);
      this.frontierA = new Int32Array(size);
      this.frontierB = new Int32Array(size);
      this.frontierC = new Int32Array(size);
      this.stamp = 0;
    }
  }

  /**
   * Reserves `count` visit stamps. A search marks a node with base + the level that reached it,
   * so one array read tells "seen in this search" (>= base) and "reached in this level".
   */
  stamps(count: number): number {
    if (this.stamp > 0x7fff0000) {
      this.seenF.fill(0);
      this.seenB.fill(0);
      this.stamp = 0;
    }
    const base = this.stamp + 1;
    this.stamp += count;
    return base;
  }

  get bytes(): number {
    return this.slots.byteLength * 2 + this.outgoing.byteLength + this.seenF.byteLength * 9;
  }
}
