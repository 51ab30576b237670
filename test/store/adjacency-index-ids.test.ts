import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createRng as rng } from '../../bench/lib/rng.js';
import { newId } from '../../src/domain/ids.js';
import type { Direction } from '../../src/domain/types.js';
import { findShortestPath, traverse } from '../../src/services/walks.js';
import type { AdjacencyQuery, GraphStore } from '../../src/store/port.js';
import { frontier, keys, memory, NOW, THRESHOLD, tempDatabase, WS, walkOptions } from './support.js';

// The index packs canonical lowercase UUIDs (the ids Engram makes) into integers and keeps any
// other id as a string; these tests mix the two wherever ids break ties.

const adjacency = (query: Partial<AdjacencyQuery> = {}): AdjacencyQuery => ({
  direction: 'OUTGOING',
  types: null,
  minWeight: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  limitPerMemory: null,
  ...query,
});
const jsOrder = (ids: readonly string[]): string[] => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const database = tempDatabase('engram-index-ids-');
const open = database.open;

async function link(
  store: GraphStore,
  id: string,
  from: string,
  to: string,
  type: string,
  weight: number,
): Promise<void> {
  await store.linkEdge(
    WS,
    { id, fromId: from, toId: to, type, weight, defaultWeight: 0.5, metadata: null, reason: null, eventId: `ev-${id}` },
    NOW,
  );
}

async function setWeight(store: GraphStore, edgeId: string, value: number, eventId: string): Promise<void> {
  await store.applyWeightChanges(
    WS,
    [
      {
        eventId,
        target: { kind: 'edge', id: edgeId },
        operation: { kind: 'set', value },
        source: 'MANUAL',
        reason: null,
      },
    ],
    { floor: 0, ceiling: 1 },
    NOW,
  );
}

/** A canonical lowercase UUID from the generator: random, so id order and creation order differ. */
function randomUuid(random: () => number): string {
  const hex = (digits: number) => Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
}

/** Mostly canonical UUIDs, some ids of other shapes that sort among them. */
function mixedId(random: () => number, at: number): string {
  const uuid = randomUuid(random);
  switch (at % 7) {
    case 1:
      return uuid.toUpperCase();
    case 3:
      return `${uuid}x`;
    case 5:
      return `${uuid.slice(0, 8)}-e${at}`;
    default:
      return uuid;
  }
}

describe('adjacency index: edge ids of any shape', () => {
  it('breaks ties between parallel edges by edge id in JavaScript order, built and patched', async () => {
    const store = open();
    for (const id of ['a', 'b', 'c']) await memory(store, id);
    const uuid = newId();
    // Around `uuid` in JavaScript order: uppercase before, a longer id after; U+FF01 and U+1F600
    // order differently in UTF-8 (SQLite) and UTF-16 (JavaScript), so the build must re-sort.
    const ids = [uuid, uuid.toUpperCase(), `${uuid}0`, 'e-short', '\uff01x', '\u{1f600}x', newId()];
    for (const [at, id] of ids.entries()) await link(store, id, 'a', 'b', `T${at}`, 0.5);
    await link(store, newId(), 'b', 'c', 'CITES', 0.5);

    const firstEdge = async () => {
      const outcome = await findShortestPath(store, WS, 'a', 'c', 3, walkOptions());
      return outcome.found ? outcome.edgeIds[0] : null;
    };
    const outgoing = async (limitPerMemory: number | null = null) =>
      ((await store.getAdjacent(WS, ['a'], adjacency({ limitPerMemory })))[0] ?? []).map((entry) => entry.edge.id);
    expect(await outgoing()).toEqual(jsOrder(ids));
    expect(await firstEdge()).toBe(jsOrder(ids)[0]);

    // Overlay slots (added after the build) sort among the base ones by id too.
    const lowest = '00000000-0000-7000-8000-000000000000';
    const between = `${uuid.slice(0, 24)}ffffffffffff`;
    await link(store, lowest, 'a', 'b', 'LATE1', 0.5);
    await link(store, 'A-late', 'a', 'b', 'LATE2', 0.5);
    await link(store, between, 'a', 'b', 'LATE3', 0.5);
    ids.push(lowest, 'A-late', between);
    expect(await outgoing()).toEqual(jsOrder(ids));
    expect(await outgoing(2)).toEqual(jsOrder(ids).slice(0, 2));
    expect(await firstEdge()).toBe(lowest);

    // A weight change moves one edge; setting it back returns it to its place among the ties.
    const last = jsOrder(ids).at(-1) as string;
    await setWeight(store, last, 0.9, 'w1');
    expect(await outgoing()).toEqual([last, ...jsOrder(ids).slice(0, -1)]);
    expect(await firstEdge()).toBe(last);
    await setWeight(store, last, 0.5, 'w2');
    expect(await outgoing()).toEqual(jsOrder(ids));
    await store.unlinkEdges(WS, { id: lowest });
    expect(await firstEdge()).toBe(jsOrder(ids)[1]);
    expect(store.adjacencyIndexStats(WS)).toMatchObject({ builds: 1 });
  });

  it('follows edges whose ends another program changed, found by id whatever its shape', async () => {
    const reader = open();
    const writer = open();
    for (const id of ['a', 'b', 'c', 'd']) await memory(writer, id);
    const packed = newId();
    const odd = `${newId()}-old`;
    await link(writer, packed, 'a', 'b', 'CITES', 0.5);
    await link(writer, odd, 'a', 'c', 'CAUSED_BY', 0.6);
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([
      `a>b#${packed}@0.5`,
      `a>c#${odd}@0.6`,
    ]);

    const raw = new Database(database.path);
    const move = raw.prepare('UPDATE edges SET to_id = ? WHERE id = ?');
    move.run('d', packed);
    move.run('d', odd);
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([
      `a>d#${packed}@0.5`,
      `a>d#${odd}@0.6`,
    ]);
    // Moved twice: the id now names an overlay slot, which the next change must find.
    move.run('b', packed);
    raw.prepare('UPDATE edges SET weight = 0.7 WHERE id = ?').run(odd);
    raw.close();
    expect(keys((await reader.expandFrontier(WS, ['a'], frontier())).steps)).toEqual([
      `a>b#${packed}@0.5`,
      `a>d#${odd}@0.7`,
    ]);
    expect(await reader.expandFrontier(WS, ['c'], frontier())).toEqual({ steps: [], truncated: false });
    expect(reader.adjacencyIndexStats(WS)).toMatchObject({ builds: 1 });
  });

  it('finds the same paths, steps, traversals, neighbors and degrees as SQL when UUIDs and other ids mix', async () => {
    const directions: Direction[] = ['BOTH', 'OUTGOING', 'INCOMING'];
    for (const seed of [11, 12, 13, 14]) {
      const random = rng(seed);
      const indexed = open();
      const sqlOnly = open({ adjacencyIndex: false });
      const n = 25 + Math.floor(random() * 30);
      const ids = Array.from({ length: n }, (_, at) => `n${((at * 7919) % 1000).toString(36)}`);
      for (const id of ids) await memory(indexed, id);
      const types = ['CITES', 'CAUSED_BY', 'EXTENDS'];
      const weights = [0.02, 0.05, 0.3, 0.5, 0.5, 0.8];
      const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
      let edgeAt = 0;
      const edges = Math.floor(n * (1 + random() * 2));
      for (let at = 0; at < edges; at++) {
        // A third of the edges touch one hub, so some lists are long.
        const from = at % 3 === 0 ? (ids[0] as string) : pick(ids);
        const to = pick(ids);
        if (from === to) continue;
        await link(indexed, mixedId(random, edgeAt++), from, to, pick(types), pick(weights));
      }
      const compare = async (round: string) => {
        for (let pair = 0; pair < 24; pair++) {
          const a = pair % 4 === 0 ? (ids[0] as string) : pick(ids);
          const b = pick(ids);
          const options = walkOptions({
            direction: directions[pair % 3] as Direction,
            types: pair % 4 === 1 ? ['CITES', 'EXTENDS'] : null,
          });
          const hops = 1 + (pair % 5);
          const label = `${round} seed ${seed} ${a}->${b} ${options.direction} ${hops}`;
          expect(await findShortestPath(indexed, WS, a, b, hops, options), label).toEqual(
            await findShortestPath(sqlOnly, WS, a, b, hops, options),
          );
          const query = frontier({ direction: options.direction, types: options.types });
          expect(keys((await indexed.expandFrontier(WS, [a, b], query)).steps), label).toEqual(
            keys((await sqlOnly.expandFrontier(WS, [a, b], query)).steps),
          );
          expect(await traverse(indexed, WS, a, 3, 20, options), label).toEqual(
            await traverse(sqlOnly, WS, a, 3, 20, options),
          );
          const neighbors = adjacency({
            direction: options.direction,
            types: options.types,
            minWeight: pair % 5 === 0 ? 0.4 : null,
            includePruned: pair % 3 === 1,
            limitPerMemory: pair % 2 === 0 ? 3 : null,
          });
          expect(await indexed.getAdjacent(WS, [a, b, 'nobody'], neighbors), label).toEqual(
            await sqlOnly.getAdjacent(WS, [a, b, 'nobody'], neighbors),
          );
          expect(await indexed.countAdjacent(WS, [a, b, 'nobody'], neighbors), label).toEqual(
            await sqlOnly.countAdjacent(WS, [a, b, 'nobody'], neighbors),
          );
        }
      };
      await compare('built');
      for (let at = 0; at < 12; at++) {
        await link(
          indexed,
          mixedId(random, edgeAt++),
          at % 2 === 0 ? (ids[0] as string) : pick(ids),
          pick(ids),
          pick(types),
          pick(weights),
        );
      }
      const some = (await indexed.listEdges(WS, { afterId: null, limit: 1000 })).filter((_, at) => at % 4 === 0);
      for (const [at, edge] of some.entries())
        await setWeight(indexed, edge.id, weights[at % weights.length] as number, `w${seed}-${at}`);
      await indexed.deleteMemory(WS, ids[3] as string);
      await compare('patched');
      expect(indexed.adjacencyIndexStats(WS)).toMatchObject({ builds: 1 });
      await database.reset();
    }
  });
});

describe('neighbor records read by rowid', () => {
  it('finds a memory deleted and created again, whose old rowid now holds another memory', async () => {
    const store = open();
    await memory(store, 'a');
    await memory(store, 'b');
    const first = newId();
    await link(store, first, 'a', 'b', 'RELATED_TO', 0.6);
    // The index learns b's rowid here.
    expect((await store.getAdjacent(WS, ['a'], adjacency()))[0]?.map((entry) => entry.neighbor.id)).toEqual(['b']);

    // b had the largest rowid, so the next memory (c) takes it; b comes back with a new one.
    await store.deleteMemory(WS, 'b');
    await memory(store, 'c');
    await store.createMemory(
      WS,
      { id: 'b', key: null, title: 'b, again', content: null, kind: null, tags: [], weight: 0.5, metadata: null },
      NOW,
    );
    const second = newId();
    await link(store, second, 'a', 'b', 'RELATED_TO', 0.7);
    await link(store, newId(), 'a', 'c', 'RELATED_TO', 0.2);

    const [list] = await store.getAdjacent(WS, ['a'], adjacency());
    expect(list?.map((entry) => [entry.edge.id, entry.neighbor.id, entry.neighbor.title])).toEqual([
      [second, 'b', 'b, again'],
      [expect.any(String), 'c', 'c'],
    ]);
    const sqlOnly = open({ adjacencyIndex: false });
    expect(await sqlOnly.getAdjacent(WS, ['a'], adjacency())).toEqual(await store.getAdjacent(WS, ['a'], adjacency()));
  });
});
