import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_WORKER_ENV } from '../../src/cluster/messages.js';
import { loadConfig } from '../../src/config.js';

describe('ENGRAM_WORKERS', () => {
  it('defaults to one per core, and to 1 in tests unless set', () => {
    expect(loadConfig({}).workers).toBe(availableParallelism());
    expect(loadConfig({ NODE_ENV: 'test' }).workers).toBe(1);
    expect(loadConfig({ VITEST: 'true' }).workers).toBe(1);
    expect(loadConfig({ VITEST: 'true', ENGRAM_WORKERS: '3' }).workers).toBe(3);
  });

  it('refuses what is not a whole number from 1 to 256, naming the variable', () => {
    for (const value of ['0', '-1', '1.5', 'many', '257']) {
      expect(() => loadConfig({ ENGRAM_WORKERS: value })).toThrow(
        `ENGRAM_WORKERS=${value}: must be a whole number from 1 to 256`,
      );
    }
  });

  it('marks the background worker slot only where the primary set its variable', () => {
    expect(loadConfig({}).backgroundWorkerSlot).toBe(false);
    expect(loadConfig({ [BACKGROUND_WORKER_ENV]: '1' }).backgroundWorkerSlot).toBe(true);
  });
});
