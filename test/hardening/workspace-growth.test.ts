import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { FULL_TESTS } from '../helpers/full-tests.js';

/**
 * Finding 2 of issue 12: memory must not grow with the number of workspaces. Each workspace gets
 * one memory and one `degree` query (which builds its adjacency index), through the real app
 * (yoga.fetch, header mode, a real SQLite file). The 10,000-workspace run of the issue takes about
 * a minute, so it runs in `npm run test:full` (which CI runs); a 1,000-workspace run always does.
 */

const FULL = FULL_TESTS;
if (!FULL) {
  console.warn(
    '\n*** SKIPPED: the 10,000-workspace growth test runs in npm run test:full (the 1,000-workspace version runs now) ***\n',
  );
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
const MB = 1024 * 1024;

/**
 * Memory once garbage is collected, in two parts. `live` is what JavaScript
 * keeps alive: the heap's live objects and the buffers behind typed arrays, where indexes keep
 * their edges. `native` is the resident set outside V8's heap: SQLite, those buffers, and what the
 * allocator keeps (the buffers count in both). The heap V8 keeps committed but empty is in neither: it is V8's choice, not the
 * code's (over 10,000 workspaces it kept 20 to 80 MB of it, run to run, for the same 25-29 MB live).
 */
function settle(): { live: number; native: number } {
  for (let k = 0; k < 3; k++) gc();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  const { heapUsed, external, rss } = process.memoryUsage();
  return { live: heapUsed + external, native: rss - getHeapStatistics().total_physical_size };
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One memory and one degree query in each of `count` workspaces, numbered from `from`. */
async function touch(app: TestApp, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++) {
    const workspace = `tenant-${n}`;
    const created = await app.gql(
      'mutation { createMemory(input: { id: "m", title: "only memory" }) { id } }',
      {},
      { workspace },
    );
    expect(created.errors).toBeUndefined();
    const read = await app.gql('{ memory(id: "m") { degree } }', {}, { workspace });
    expect(read.data?.memory?.degree).toBe(0);
  }
}

/** SQLite's page cache is bounded on its own (ENGRAM_SQLITE_CACHE_MB): kept small here so it does not hide what grows per workspace. */
const CACHE_MB = 4;

async function growth(workspaces: number): Promise<void> {
  t = await createTestApp({ env: { ENGRAM_SQLITE_CACHE_MB: String(CACHE_MB) } });
  const store = t.store as SqliteStore;
  const warmup = 500;
  await touch(t, 0, warmup);
  const before = settle();
  await touch(t, warmup, workspaces - warmup);
  const after = settle();
  const totals = store.adjacencyIndexTotals();
  // A workspace of one memory holds an index of about 3.4 KB, not a reservation for 1,024 edges (80 KB).
  expect(totals.bytes / Math.max(1, totals.indexes)).toBeLessThan(4096);
  expect(totals.bytes).toBeLessThanOrEqual(totals.maxBytes);
  const added = workspaces - warmup;
  // What the code keeps per workspace (its index, its caches' entries): at most 6 KiB (about
  // 2.7 KiB measured). The code this test was written against kept 80 KiB (1,069 MB after 10,000).
  expect(after.live - before.live).toBeLessThan(added * 6 * 1024);
  // Outside the heap: SQLite and the allocator. Measured 2 to 52 MB over 10,000 workspaces, as
  // the allocator's arenas happen to fill; the 80 KiB regression lived in typed arrays, so it
  // would show here too, 8 times over this bound.
  expect(after.native - before.native).toBeLessThan(added * 10 * 1024 + CACHE_MB * MB + 16 * MB);
}

describe('many workspaces (issue 12, finding 2)', () => {
  it('keeps memory flat over 1,000 workspaces with one memory and one degree query each', async () => {
    await growth(1_000);
  }, 120_000);

  it.skipIf(!FULL)(
    'keeps memory flat over 10,000 workspaces with one memory and one degree query each',
    async () => {
      await growth(10_000);
    },
    600_000,
  );

  it('drops the indexes of workspaces unused for ENGRAM_INDEX_IDLE_SECONDS', async () => {
    t = await createTestApp({ env: { ENGRAM_INDEX_IDLE_SECONDS: '4' } });
    const store = t.store as SqliteStore;
    const started = performance.now();
    await touch(t, 0, 40);
    const busy = store.adjacencyIndexTotals();
    const elapsed = performance.now() - started;
    await new Promise((resume) => setTimeout(resume, 4_200));
    await touch(t, 40, 1);
    const after = store.adjacencyIndexTotals();
    if (elapsed < 4_000) expect(busy.indexes).toBe(40);
    expect(after.indexes).toBe(1);
    expect(store.adjacencyIndexStats('tenant-40')).not.toBeNull();
    expect(store.adjacencyIndexStats('tenant-0')).toBeNull();
  }, 60_000);

  it('holds every index under ENGRAM_INDEX_MAX_MB, least recently used dropped first, and answers the same after', async () => {
    t = await createTestApp({ env: { ENGRAM_INDEX_MAX_MB: '1' } });
    const store = t.store as SqliteStore;
    const workspaces = 600;
    let peak = 0;
    for (let n = 0; n < workspaces; n++) {
      const workspace = `tenant-${n}`;
      // 20 memories in a star: a small graph whose index is a few KiB.
      const memories = Array.from({ length: 20 }, (_, k) => `{ id: "m${k}", title: "m${k}" }`).join(', ');
      const edges = Array.from({ length: 19 }, (_, k) => `{ from: "m0", to: "m${k + 1}", type: "RELATED_TO" }`).join(
        ', ',
      );
      const imported = await t.gql(
        `mutation { importGraph(memories: [${memories}], edges: [${edges}]) { memories edges } }`,
        {},
        { workspace },
      );
      expect(imported.errors).toBeUndefined();
      const read = await t.gql('{ memory(id: "m0") { degree } }', {}, { workspace });
      expect(read.data?.memory?.degree).toBe(19);
      peak = Math.max(peak, store.adjacencyIndexTotals().bytes);
    }
    const totals = store.adjacencyIndexTotals();
    expect(peak).toBeLessThanOrEqual(MB);
    expect(totals.indexes).toBeLessThan(workspaces);
    // The newest stays, the oldest was dropped, and an evicted workspace is indexed again on use.
    expect(store.adjacencyIndexStats(`tenant-${workspaces - 1}`)).not.toBeNull();
    expect(store.adjacencyIndexStats('tenant-0')).toBeNull();
    const again = await t.gql('{ memory(id: "m0") { degree } }', {}, { workspace: 'tenant-0' });
    expect(again.data?.memory?.degree).toBe(19);
    expect(store.adjacencyIndexStats('tenant-0')).not.toBeNull();
  }, 120_000);
});
