import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { findShortestPath } from '../../src/services/walks.js';
import { plainMemory } from '../helpers/records.js';
import { frontier, keys, levelByLevel, link, memory, NOW, tempDatabase, WS, walkOptions } from './support.js';

const database = tempDatabase('engram-index-');
const open = database.open;

describe('adjacency index: coherence', () => {
  it('sees an edge another connection commits on the next expandFrontier', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c']) await memory(writer, id);
    await link(writer, 'a', 'b');
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual(['a>b#e-a-b-RELATED_TO@0.5']);

    await link(writer, 'a', 'c', 'CITES', 0.7);
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([
      'a>b#e-a-b-RELATED_TO@0.5',
      'a>c#e-a-c-CITES@0.7',
    ]);
  });

  it("sees another connection's weight change, unlink and memory deletion", async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c', 'd']) await memory(writer, id);
    const ab = await link(writer, 'a', 'b');
    await link(writer, 'a', 'c');
    await link(writer, 'd', 'a');
    expect((await reader.expandFrontier(WS, ['a'], frontier())).steps).toHaveLength(3);

    await writer.applyWeightChanges(
      WS,
      [
        {
          eventId: 'w1',
          target: { kind: 'edge', id: ab },
          operation: { kind: 'set', value: 0.9 },
          source: 'MANUAL',
          reason: null,
        },
      ],
      { floor: 0, ceiling: 1 },
      NOW,
    );
    await writer.unlinkEdges(WS, { fromId: 'a', toId: 'c', type: 'RELATED_TO' });
    await writer.deleteMemory(WS, 'd');
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([`a>b#${ab}@0.9`]);
  });

  it('sees its own writes on the next read, with no other signal', async () => {
    const store = open();
    for (const id of ['a', 'b', 'c']) await memory(store, id);
    await link(store, 'a', 'b');
    expect(await findShortestPath(store, WS, 'a', 'c', 4, walkOptions())).toEqual({
      found: false,
      budgetExhausted: false,
    });
    const bc = await link(store, 'b', 'c');
    expect(await findShortestPath(store, WS, 'a', 'c', 4, walkOptions())).toEqual({
      found: true,
      memoryIds: ['a', 'b', 'c'],
      edgeIds: ['e-a-b-RELATED_TO', bc],
    });
    await store.unlinkEdges(WS, { id: bc });
    expect((await findShortestPath(store, WS, 'a', 'c', 4, walkOptions())).found).toBe(false);
  });

  it('skips an edge weakened to the prune threshold by another connection, and walks it again once revived', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b']) await memory(writer, id);
    const ab = await link(writer, 'a', 'b', 'CAUSED_BY', 0.35);
    expect((await findShortestPath(reader, WS, 'a', 'b', 2, walkOptions())).found).toBe(true);

    const nudge = async (delta: number, eventId: string) =>
      writer.applyWeightChanges(
        WS,
        [
          {
            eventId,
            target: { kind: 'edge', id: ab },
            operation: { kind: 'delta', delta },
            source: 'CONSCIOUS',
            reason: null,
          },
        ],
        { floor: 0, ceiling: 1 },
        NOW,
      );
    await nudge(-0.3, 'w1');
    expect(await reader.expandFrontier(WS, ['a'], frontier())).toEqual({ steps: [], truncated: false });
    expect((await findShortestPath(reader, WS, 'a', 'b', 2, walkOptions())).found).toBe(false);

    await nudge(0.01, 'w2');
    expect((await findShortestPath(reader, WS, 'a', 'b', 2, walkOptions())).found).toBe(true);
  });

  it('rebuilds when the change log was pruned past what it had applied', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c']) await memory(writer, id);
    await link(writer, 'a', 'b');
    await reader.expandFrontier(WS, ['a'], frontier());
    await link(writer, 'a', 'c');
    // Another process pruned the log: the reader cannot patch, it must read the edges again.
    const raw = new Database(database.path);
    raw.prepare('DELETE FROM edge_changes').run();
    raw.close();
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([
      'a>b#e-a-b-RELATED_TO@0.5',
      'a>c#e-a-c-RELATED_TO@0.5',
    ]);
  });

  it('sees edges and memories created after the build, in order, across many small changes', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['m0', 'm1']) await memory(writer, id);
    await link(writer, 'm0', 'm1');
    await reader.expandFrontier(WS, ['m0'], frontier());
    for (let at = 2; at < 40; at++) {
      await memory(writer, `m${at}`);
      await link(writer, `m${at - 1}`, `m${at}`, 'EXTENDS', 0.5 + at / 100);
    }
    const outcome = await findShortestPath(reader, WS, 'm0', 'm9', 10, walkOptions());
    expect(outcome).toEqual(
      await findShortestPath(levelByLevel(open({ adjacencyIndex: false })), WS, 'm0', 'm9', 10, walkOptions()),
    );
    expect(outcome.found && outcome.memoryIds).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
  });

  it('sees an edge that reuses the rowid of a deleted one', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c']) await memory(writer, id);
    await link(writer, 'a', 'b');
    const ac = await link(writer, 'a', 'c');
    await reader.expandFrontier(WS, ['a'], frontier());
    // The newest edge (largest rowid) goes; SQLite gives its rowid to the next edge.
    await writer.unlinkEdges(WS, { id: ac });
    await link(writer, 'b', 'c', 'CITES');
    const raw = new Database(database.path, { readonly: true });
    expect((raw.prepare('SELECT count(DISTINCT rid) AS n FROM edges').get() as { n: number }).n).toBe(2);
    raw.close();
    expect(keys((await reader.expandFrontier(WS, ['c'], frontier())).steps)).toEqual(['c>b#e-b-c-CITES@0.5']);
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual(['a>b#e-a-b-RELATED_TO@0.5']);
  });

  it('sees rows another program wrote with plain SQL', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c']) await memory(writer, id);
    const ab = await link(writer, 'a', 'b');
    await reader.expandFrontier(WS, ['a'], frontier());
    const raw = new Database(database.path);
    raw
      .prepare(
        `INSERT INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at)
         VALUES (?, 'raw-ac', 'a', 'c', 'CITES', 0.8, NULL, ?, ?)`,
      )
      .run(WS, NOW, NOW);
    raw.prepare('UPDATE edges SET weight = 0.01 WHERE id = ?').run(ab);
    raw.close();
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual(['a>c#raw-ac@0.8']);
  });

  it('rebuilds after another connection bulk-imports into the workspace', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b']) await memory(writer, id);
    await link(writer, 'a', 'b');
    await reader.expandFrontier(WS, ['a'], frontier());
    const ids = Array.from({ length: 2100 }, (_, at) => `bulk${at}`);
    await writer.importBatch(
      WS,
      {
        memories: ids.map((id) => plainMemory(id)),
        edges: ids.map((id, at) => ({
          id: `edge-${at}`,
          fromId: 'a',
          toId: id,
          type: 'CITES',
          weight: 0.5,
          metadata: null,
        })),
      },
      NOW,
    );
    expect((await reader.expandFrontier(WS, ['a'], frontier({ budget: 5000 }))).steps).toHaveLength(2101);
    expect(reader.adjacencyIndexStats(WS)).toMatchObject({ slots: 2101, overlaySlots: 0 });
  });

  it('keeps workspaces apart', async () => {
    const store = open();
    for (const id of ['a', 'b']) {
      await memory(store, id);
      await memory(store, id, 'other');
    }
    await link(store, 'a', 'b', 'CITES', 0.5, 'other');
    expect(await store.expandFrontier(WS, ['a'], frontier())).toEqual({ steps: [], truncated: false });
    expect((await store.expandFrontier('other', ['a'], frontier())).steps).toHaveLength(1);
  });
});
