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
