import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../src/domain/errors.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { adjacency, degree } from '../contract/contract-kit.js';
import { plainMemory } from '../helpers/records.js';
import { frontier, memory, NOW, THRESHOLD, WS } from './support.js';

const record = { id: 'r', query: 'q', results: [], truncated: false, createdAt: NOW, expiresAt: NOW };

/**
 * Arguments that get each port method of the SQLite store past its early answers (an empty list,
 * say) to its first statement. A method missing here fails the test: every port method, including
 * one added later, must be shown to fail with a coded error.
 */
const CALLS: Record<string, unknown[]> = {
  ping: [],
  getMemories: [WS, ['a']],
  getEdges: [WS, ['e']],
  getAdjacent: [WS, ['a'], adjacency()],
  getAdjacentPage: [WS, ['a'], { ...adjacency(), after: { weight: 0.5, edgeId: 'e' }, limit: 5 }],
  getMemoriesWithAdjacent: [WS, ['a'], adjacency()],
  countAdjacent: [WS, ['a'], degree()],
  expandFrontier: [WS, ['a'], frontier()],
  associationCandidates: [WS, ['a'], { maxShared: 20, budget: 100 }],
  shortestPath: [WS, 'a', 'b', 3, frontier()],
  findEdge: [WS, 'a', 'b', 'CITES'],
  edgesAmong: [WS, ['a', 'b'], { types: null, pruneThreshold: THRESHOLD }],
  edgesBetween: [WS, 'a', 'b', null],
  searchMemories: [WS, { text: 'a', kinds: null, tags: null, limit: 5, currentOnly: false, pruneThreshold: THRESHOLD }],
  listNewest: [WS, { text: '', kinds: null, tags: ['a'], limit: 5, currentOnly: false, pruneThreshold: THRESHOLD }],
  listWeightEvents: [WS, { edgeId: null, memoryId: null, source: null, limit: 5 }],
  getEdgeHistories: [WS, ['e'], 5],
  getWeightEvents: [WS, ['w']],
  listEdgesByType: [WS, { types: ['CITES'], minWeight: null, pruneThreshold: THRESHOLD, after: null, limit: 5 }],
  rankTargetsBySources: [WS, { types: ['CITES'], minSources: 1, minWeight: null, pruneThreshold: THRESHOLD, limit: 5 }],
  createMemory: [WS, plainMemory('n'), NOW],
  updateMemory: [WS, 'a', { title: 'b' }, NOW],
  deleteMemory: [WS, 'a'],
  linkEdge: [
    WS,
    {
      id: 'e',
      fromId: 'a',
      toId: 'b',
      type: 'CITES',
      weight: null,
      defaultWeight: 0.5,
      metadata: null,
      reason: null,
      eventId: 'w',
    },
    NOW,
  ],
  unlinkEdges: [WS, { id: 'e' }],
  applyWeightChanges: [WS, [], NOW],
  importBatch: [WS, { memories: [plainMemory('n')], edges: [] }, NOW],
  beginBulkLoad: ['other', { expectedEdges: null }],
  listMemories: [WS, { afterId: null, limit: 5 }],
  listEdges: [WS, { afterId: null, limit: 5 }],
  saveRecall: [WS, record, NOW],
  getRecall: [WS, 'r', NOW],
  listRecalls: [WS, { limit: 5, now: NOW }],
  saveRecallCue: [
    WS,
    { id: 'c', memoryId: 'a', edgeId: 'e', names: ['x'], terms: [], keys: ['x'], createdAt: NOW },
    20,
  ],
  deleteRecallCue: [WS, 'c'],
  findRecallCues: [WS, ['x'], 10],
  saveSearchPages: [WS, { id: 's', memoryIds: ['a'], createdAt: NOW, expiresAt: NOW }, NOW],
  getSearchPages: [WS, 's', NOW],
  embeddingDimensions: [WS],
  setEmbeddings: [WS, [{ memoryId: 'a', vector: [1, 0] }]],
  hasEmbeddings: [WS, ['a']],
  nearestMemories: [WS, [1, 0], 5],
  memoriesNeedingEmbedding: [WS, 5],
  workspacesNeedingEmbedding: [5],
  warmAdjacencyIndex: [WS],
};

/** Not store work: a label, the lifecycle, and the index's statistics kept in memory. */
const NOT_STORE_WORK = new Set(['description', 'close', 'adjacencyIndexStats', 'adjacencyIndexTotals']);

describe('the SQLite store maps every failure once, whatever the port method', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('answers UNAVAILABLE from every port method once its connection is closed under it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-coded-'));
    const store = createSqliteStore({ path: join(dir, 'engram.db') });
    await memory(store, 'a');
    await memory(store, 'b');
    const methods = Object.keys(store).filter((name) => !NOT_STORE_WORK.has(name));
    expect(methods.filter((name) => !(name in CALLS))).toEqual([]);
    // The real driver, really closed: every statement now fails with better-sqlite3's own error.
    await store.close();
    const outcomes: Record<string, string> = {};
    for (const name of methods) {
      const method = (store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name];
      outcomes[name] = await (method as (...args: unknown[]) => Promise<unknown>)(...(CALLS[name] ?? [])).then(
        () => 'answered',
        (error: unknown) => (error instanceof EngramError ? error.code : `raw ${String(error)}`),
      );
    }
    expect(outcomes).toEqual(Object.fromEntries(methods.map((name) => [name, 'UNAVAILABLE'])));
  });

  it('maps a constraint the statement breaks to the contract code: CONFLICT for a taken id', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-coded-'));
    const store: GraphStore = createSqliteStore({ path: join(dir, 'engram.db') });
    await memory(store, 'a');
    await expect(memory(store, 'a')).rejects.toMatchObject({ code: 'CONFLICT' });
    await store.close();
  });
});
