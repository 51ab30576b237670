import type Database from 'better-sqlite3';

/**
 * Reads of two records of the full-text index's own table (memories_fts_data), which are part of
 * FTS5's file format: the structure record (the segments) and the averages record (the row
 * count bm25() ranks with). Each is one row, so reading it costs far less than a query would.
 */

/** SQLite's varints, as FTS5 writes them: 7 bits a byte, most significant first, the ninth byte whole. */
function varintReader(block: Buffer, from: number) {
  let at = from;
  return {
    next(): number {
      let value = 0;
      for (let i = 0; i < 9; i++) {
        const byte = block[at++] as number;
        if (i === 8) return value * 256 + byte;
        value = value * 128 + (byte & 0x7f);
        if (!(byte & 0x80)) return value;
      }
      return value;
    },
    /** Whether the reads so far stayed inside the record (one reading past its end gives garbage). */
    within: (): boolean => at <= block.length,
    more: (): boolean => at < block.length,
  };
}

const dataRecord = (db: Database.Database, id: number): Buffer | undefined =>
  (db.prepare('SELECT block FROM memories_fts_data WHERE id = ?').get(id) as { block: Buffer } | undefined)?.block;

/** What follows the cookie in the second version of the structure record, which adds fields per segment. */
const STRUCTURE_V2 = Buffer.from([0xff, 0x00, 0x00, 0x01]);

/**
 * The leaf pages of each segment of an FTS5 index, from its structure record (id 10): a 4-byte
 * cookie, then varints: levels, segments, writes, and for each level its merge count and segment
 * count, then each segment's id, first and last page. Empty for a record it cannot read (the
 * second version, written only for contentless-delete tables, or one cut short), so the upkeep
 * then does nothing.
 */
export function searchIndexSegments(db: Database.Database): number[] {
  const block = dataRecord(db, 10);
  if (!block || block.length < 4 || block.subarray(4, 8).equals(STRUCTURE_V2)) return [];
  const record = varintReader(block, 4);
  const levels = record.next();
  const segmentsInAll = record.next();
  record.next(); // writes
  const pages: number[] = [];
  for (let level = 0; level < levels && record.more(); level++) {
    record.next(); // segments of this level being merged
    const segments = record.next();
    for (let s = 0; s < segments; s++) {
      // A count read from a record that is not what this expects ends with the record.
      if (!record.more()) return [];
      record.next(); // segment id
      const first = record.next();
      const last = record.next();
      pages.push(last - first + 1);
    }
  }
  return record.within() && pages.length === segmentsInAll ? pages : [];
}

/**
 * How many rows the index holds, in every workspace: the N of bm25()'s idf, the first varint of
 * the averages record (id 1; FTS5 keeps it up to date in every write transaction). 0 for an
 * index that has never held a row, or a record it cannot read.
 */
export function searchIndexRows(db: Database.Database): number {
  const block = dataRecord(db, 1);
  if (!block || block.length === 0) return 0;
  const record = varintReader(block, 0);
  const rows = record.next();
  return record.within() ? rows : 0;
}
