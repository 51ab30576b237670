import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

describe('createSqliteStore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-sqlite-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reopens an existing file without re-running migrations and keeps its data', async () => {
    const path = join(dir, 'nested', 'engram.db');
    const first = createSqliteStore({ path });
    const memory = await first.createMemory(
      'ws',
      {
        id: newId(),
        key: 'kept',
        title: 'Kept across restarts',
        content: null,
        kind: null,
        tags: [],
        weight: 0.5,
        metadata: null,
      },
      '2099-01-01T00:00:00.000Z',
    );
    await first.close();
    const second = createSqliteStore({ path });
    try {
      expect((await second.getMemories('ws', ['kept']))[0]).toEqual(memory);
      expect(
        (
          await second.searchMemories('ws', {
            text: 'restarts',
            kinds: null,
            tags: null,
            limit: 5,
            currentOnly: false,
            pruneThreshold: 0.05,
          })
        ).map((found) => found.id),
      ).toEqual([memory.id]);
    } finally {
      await second.close();
    }
  });
});
