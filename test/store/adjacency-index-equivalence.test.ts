import { describe, expect, it } from 'vitest';
import { createRng as rng } from '../../bench/lib/rng.js';
import type { Direction } from '../../src/domain/types.js';
import { findShortestPath, traverse } from '../../src/services/walks.js';
import {
  frontier,
  keys,
  levelByLevel,
  link,
  memory,
  NOW,
  THRESHOLD,
  tempDatabase,
  WS,
  walkOptions,
} from './support.js';

const database = tempDatabase('engram-index-equivalence-');
const open = database.open;

describe('adjacency index: id order', () => {
  it('breaks ties in JavaScript string order even where SQLite orders the bytes differently', async () => {
    // U+FF01 sorts before U+1F600 in UTF-8 bytes, after it in UTF-16 code units.
    const [wide, emoji] = ['n\uff01', 'n\u{1f600}'];
    const indexed = open();
    const sqlOnly = open({ adjacencyIndex: false });
    for (const id of ['a', 'z', wide, emoji]) await memory(indexed, id);
    const edge = async (from: string, to: string, id: string) =>
      indexed.linkEdge(
        WS,
        {
          id,
          fromId: from,
          toId: to,
          type: 'CITES',
          weight: 0.5,
          defaultWeight: 0.5,
          metadata: null,
          reason: null,
          eventId: `ev-${id}`,
        },
        NOW,
      );
    await edge('a', wide, `e${wide}1`);
    await edge('a', emoji, `e${emoji}1`);
    await edge(wide, 'z', `e${wide}2`);
    await edge(emoji, 'z', `e${emoji}2`);
    const expected = await findShortestPath(levelByLevel(sqlOnly), WS, 'a', 'z', 4, walkOptions());
    expect(expected).toEqual({ found: true, memoryIds: ['a', emoji, 'z'], edgeIds: [`e${emoji}1`, `e${emoji}2`] });
    expect(await findShortestPath(indexed, WS, 'a', 'z', 4, walkOptions())).toEqual(expected);
    // Neighbors break ties the same way. (SQL alone orders such ids by bytes; ids Engram makes are ASCII, where the two agree.)
    const neighbors = {
      direction: 'BOTH' as const,
      types: null,
      minWeight: null,
      includePruned: false,
      pruneThreshold: THRESHOLD,
      limitPerMemory: 1,
    };
    expect((await indexed.getAdjacent(WS, ['a'], neighbors))[0]?.map((entry) => entry.edge.id)).toEqual([`e${emoji}1`]);
  });
});

describe('adjacency index: background build', () => {
  it('serves walks by SQL while a large workspace is indexed on a second connection, then from the index, writes included', async () => {
    const store = open({ adjacencyIndex: { backgroundAbove: 5 } });
    for (let at = 0; at < 12; at++) await memory(store, `m${at}`);
    for (let at = 1; at < 12; at++) await link(store, `m${at - 1}`, `m${at}`);
    const sqlAnswer = await findShortestPath(store, WS, 'm0', 'm10', 10, walkOptions());
    expect(sqlAnswer.found).toBe(true);
    // The walk above started the build; a write lands while it runs.
    await link(store, 'm0', 'm11', 'CITES', 0.9);
    expect(await store.warmAdjacencyIndex(WS)).toBe(true);
    expect(store.adjacencyIndexStats(WS)).toMatchObject({ slots: 11 + 1 });
    expect(await findShortestPath(store, WS, 'm0', 'm11', 10, walkOptions())).toEqual({
      found: true,
      memoryIds: ['m0', 'm11'],
      edgeIds: ['e-m0-m11-CITES'],
    });
  });
});

describe('adjacency index: budget', () => {
  it('returns at most budget steps and says it truncated', async () => {
    const store = open();
    await memory(store, 'hub');
    for (let at = 0; at < 10; at++) {
      await memory(store, `s${at}`);
      await link(store, 'hub', `s${at}`, 'CITES', 0.1 + at / 20);
    }
    const cut = await store.expandFrontier(WS, ['hub'], frontier({ budget: 4 }));
    expect(cut.truncated).toBe(true);
    expect(cut.steps.map((step) => step.to)).toEqual(['s9', 's8', 's7', 's6']);
    expect(await store.expandFrontier(WS, ['hub'], frontier({ budget: 10 }))).toMatchObject({ truncated: false });
  });

  it('stops a path search when the budget runs out, exactly where the level-by-level walk stops', async () => {
    const store = open();
    for (const id of ['a', 'z']) await memory(store, id);
    for (let at = 0; at < 30; at++) {
      await memory(store, `x${at}`);
      await link(store, 'a', `x${at}`, 'CITES', 0.5);
      if (at === 29) await link(store, `x${at}`, 'z');
    }
    for (const budget of [5, 29, 30, 31, 32, 60]) {
      const fast = await findShortestPath(store, WS, 'a', 'z', 4, walkOptions({ budget }));
      expect(fast, `budget ${budget}`).toEqual(
        await findShortestPath(levelByLevel(store), WS, 'a', 'z', 4, walkOptions({ budget })),
      );
    }
    expect(await findShortestPath(store, WS, 'a', 'z', 4, walkOptions({ budget: 5 }))).toEqual({
      found: false,
      budgetExhausted: true,
    });
  });
});

describe('adjacency index: same answers as SQL', () => {
  const directions: Direction[] = ['BOTH', 'OUTGOING', 'INCOMING'];

  it('finds the same paths, steps, traversals, neighbors and degrees as SQL on random graphs with ties, pruned and parallel edges', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const random = rng(seed);
      const indexed = open();
      const sqlOnly = open({ adjacencyIndex: false });
      const n = 25 + Math.floor(random() * 40);
      // Ids not created in order, so id order and creation order differ.
      const ids = Array.from({ length: n }, (_, at) => `n${((at * 7919) % 1000).toString(36)}`);
      for (const id of ids) await memory(indexed, id);
      const types = ['CITES', 'CAUSED_BY', 'EXTENDS'];
      const weights = [0.02, 0.05, 0.3, 0.5, 0.5, 0.8];
      const edges = Math.floor(n * (1 + random() * 2));
      for (let at = 0; at < edges; at++) {
        const from = ids[Math.floor(random() * n)] as string;
        const to = ids[Math.floor(random() * n)] as string;
        if (from === to) continue;
        await link(indexed, from, to, types[Math.floor(random() * 3)], weights[Math.floor(random() * weights.length)]);
      }
      const compare = async (round: string) => {
        for (let pair = 0; pair < 30; pair++) {
          const a = ids[Math.floor(random() * n)] as string;
          const b = ids[Math.floor(random() * n)] as string;
          const options = walkOptions({
            direction: directions[pair % 3] as Direction,
            types: pair % 4 === 0 ? ['CITES', 'EXTENDS'] : null,
          });
          const hops = 1 + (pair % 6);
          const label = `${round} seed ${seed} ${a}->${b} ${options.direction} ${hops}`;
          const expected = await findShortestPath(sqlOnly, WS, a, b, hops, options);
          expect(await findShortestPath(indexed, WS, a, b, hops, options), label).toEqual(expected);
          expect(await findShortestPath(levelByLevel(indexed), WS, a, b, hops, options), label).toEqual(expected);
          const query = frontier({ direction: options.direction, types: options.types });
          expect(keys((await indexed.expandFrontier(WS, [a, b], query)).steps), label).toEqual(
            keys((await sqlOnly.expandFrontier(WS, [a, b], query)).steps),
          );
          expect(await traverse(indexed, WS, a, 3, 20, options), label).toEqual(
            await traverse(sqlOnly, WS, a, 3, 20, options),
          );
          const adjacency = {
            direction: options.direction,
            types: options.types,
            minWeight: pair % 5 === 0 ? 0.4 : null,
            includePruned: pair % 3 === 1,
            pruneThreshold: THRESHOLD,
            limitPerMemory: pair % 2 === 0 ? 2 : null,
          };
          expect(await indexed.getAdjacent(WS, [a, b, a, 'nobody'], adjacency), label).toEqual(
            await sqlOnly.getAdjacent(WS, [a, b, a, 'nobody'], adjacency),
          );
          expect(await indexed.countAdjacent(WS, [a, b, 'nobody'], adjacency), label).toEqual(
            await sqlOnly.countAdjacent(WS, [a, b, 'nobody'], adjacency),
          );
        }
      };
      await compare('built');
      // Patch the built index: new memories (after the id-ordered base), new edges, weight changes, deletions.
      for (let at = 0; at < 8; at++) {
        const id = `late${at}`;
        await memory(indexed, id);
        ids.push(id);
        await link(indexed, id, ids[Math.floor(random() * n)] as string, 'CITES', weights[at % weights.length]);
        await link(indexed, ids[Math.floor(random() * n)] as string, id, 'EXTENDS', 0.5);
      }
      const some = (await indexed.listEdges(WS, { afterId: null, limit: 1000 })).filter((_, at) => at % 5 === 0);
      await indexed.applyWeightChanges(
        WS,
        some.map((edge, at) => ({
          eventId: `w${seed}-${at}`,
          target: { kind: 'edge' as const, id: edge.id },
          operation: { kind: 'set' as const, value: weights[at % weights.length] as number },
          source: 'MANUAL' as const,
          reason: null,
        })),
        { floor: 0, ceiling: 1 },
        NOW,
      );
      await indexed.deleteMemory(WS, ids[3] as string);
      await compare('patched');
      await database.reset();
    }
  });
});
