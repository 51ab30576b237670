import { afterEach, describe, expect, it } from 'vitest';
import type { RecallRecord } from '../../src/store/port.js';
import { openDatabase } from '../../src/store/sqlite/open-database.js';
import { createRecallRecords } from '../../src/store/sqlite/recall-records.js';
import { createStoreContext } from '../../src/store/sqlite/store-context.js';
import { NOW, tempDatabase, WS } from './support.js';

/**
 * A recall record commits without waiting for the disk (synchronous NORMAL); every other write of
 * the connection must still wait (FULL), whether the save succeeded or failed.
 */
const file = tempDatabase('engram-recall-records-');
const FULL = 2;

const record = (id: string): RecallRecord => ({
  id,
  query: 'warmup spikes',
  results: [],
  truncated: false,
  createdAt: NOW,
  expiresAt: '2099-01-02T00:00:00.000Z',
});

describe('recall records on SQLite', () => {
  let close = () => {};
  afterEach(() => close());

  it('leaves the connection at synchronous FULL after a save, and after a failed one', async () => {
    const db = openDatabase({ path: file.path });
    close = () => db.close();
    const records = createRecallRecords(createStoreContext(db, null));
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    const id = '019a0000-0000-7000-8000-000000000001';
    await records.saveRecall(WS, record(id), NOW);
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    await expect(records.saveRecall(WS, record(id), NOW)).rejects.toThrow();
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    expect((await records.getRecall(WS, id, NOW))?.query).toBe('warmup spikes');
  });
});
