import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('ENGRAM_SQLITE_CACHE_MB', () => {
  it('defaults to 64 MiB and takes a whole number of MiB', () => {
    expect(loadConfig({}).store).toMatchObject({ kind: 'sqlite', cacheSizeMb: 64 });
    expect(loadConfig({ ENGRAM_SQLITE_CACHE_MB: '512' }).store).toMatchObject({ kind: 'sqlite', cacheSizeMb: 512 });
  });

  it('stops start-up on a value that is not a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      expect(() => loadConfig({ ENGRAM_SQLITE_CACHE_MB: bad }), bad).toThrow(/ENGRAM_SQLITE_CACHE_MB/);
    }
  });
});

describe('ENGRAM_INDEX_MAX_MB', () => {
  it('defaults to 1024 MiB and reaches the store as bytes', async () => {
    const { sqliteStoreOptions } = await import('../../src/store/sqlite/adapter.js');
    const defaults = loadConfig({}).store;
    expect(defaults).toMatchObject({ kind: 'sqlite', indexMaxMb: 1024, indexIdleSeconds: 600 });
    const store = loadConfig({ ENGRAM_INDEX_MAX_MB: '8', ENGRAM_INDEX_IDLE_SECONDS: '30' }).store;
    if (store.kind !== 'sqlite') throw new Error('expected the sqlite store');
    expect(sqliteStoreOptions(store).adjacencyIndex).toEqual({ maxBytes: 8 * 1024 * 1024, idleMs: 30_000 });
  });

  it('stops start-up on a value that is not a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      expect(() => loadConfig({ ENGRAM_INDEX_MAX_MB: bad }), bad).toThrow(/ENGRAM_INDEX_MAX_MB/);
      expect(() => loadConfig({ ENGRAM_INDEX_IDLE_SECONDS: bad }), bad).toThrow(/ENGRAM_INDEX_IDLE_SECONDS/);
    }
  });
});
