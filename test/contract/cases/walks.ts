import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import { findShortestPath } from '../../../src/services/walks.js';
import type { FrontierQuery, GraphStore } from '../../../src/store/port.js';
import { chain, cycle, diamond, disconnected, parallel, star } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import { adjacency, degree, frontier, OTHER, sortedIds, THRESHOLD, WS } from '../contract-kit.js';

/** The GraphStore contract, walks: adjacency, degree and frontier expansion. */
export function walkCases(t: ContractContext, offersShortestPath: boolean): void {
  const { seed, createMemory, link } = t;

  describe('getAdjacent', () => {
    it('lists OUTGOING edges with the memory at the other end', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'OUTGOING' }));
      expect(hub).toBeDefined();
      expect(sortedIds(hub!.map((adjacent) => adjacent.neighbor.id))).toEqual(
        sortedIds([g.id('s1'), g.id('s2'), g.id('s3'), g.id('s4')]),
      );
      for (const adjacent of hub!) {
        expect(adjacent.direction).toBe('OUTGOING');
        expect(adjacent.edge.fromId).toBe(g.id('hub'));
        expect(adjacent.edge.toId).toBe(adjacent.neighbor.id);
      }
      const s1 = hub!.find((adjacent) => adjacent.neighbor.id === g.id('s1'));
      expect(s1?.neighbor).toEqual(g.memories.s1);
      expect(s1?.edge).toMatchObject({ id: g.edge('hub', 's1').id, type: 'CITES', weight: 0.9 });
    });

    it('lists INCOMING edges with the memory they come from', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'INCOMING' }));
      expect(hub).toHaveLength(1);
      expect(hub![0]).toMatchObject({
        direction: 'INCOMING',
        neighbor: { id: g.id('s6') },
        edge: { id: g.edge('s6', 'hub').id },
      });
    });

    it('lists both directions for BOTH, each marked relative to the asked memory', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ direction: 'BOTH' }));
      expect(hub).toHaveLength(5);
      const directions = Object.fromEntries(hub!.map((adjacent) => [adjacent.neighbor.id, adjacent.direction]));
      expect(directions).toEqual({
        [g.id('s1')]: 'OUTGOING',
        [g.id('s2')]: 'OUTGOING',
        [g.id('s3')]: 'OUTGOING',
        [g.id('s4')]: 'OUTGOING',
        [g.id('s6')]: 'INCOMING',
      });
    });

    it('orders edges strongest first, then by edge id', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency());
      const tie = sortedIds([g.edge('hub', 's2').id, g.edge('hub', 's3').id]);
      expect(hub!.map((adjacent) => adjacent.edge.id)).toEqual([
        g.edge('hub', 's1').id,
        ...tie,
        g.edge('s6', 'hub').id,
        g.edge('hub', 's4').id,
      ]);
    });

    it('breaks weight ties by edge id even when ids were created out of order', async () => {
      const hub = await createMemory();
      const ends = [await createMemory(), await createMemory(), await createMemory()];
      const ids = [newId(), newId(), newId()];
      // Link in reverse id order so insertion order and id order disagree.
      for (let index = 2; index >= 0; index -= 1) {
        await link(hub.id, ends[index]!.id, 'RELATED_TO', { id: ids[index]!, weight: 0.4 });
      }
      const [adjacent] = await t.store.getAdjacent(WS, [hub.id], adjacency());
      expect(adjacent!.map((entry) => entry.edge.id)).toEqual(sortedIds(ids));
    });

    it('keeps only the given relation types', async () => {
      const g = await seed(star);
      const [cites] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['CITES'] }));
      expect(cites!.map((adjacent) => adjacent.edge.id)).toEqual([g.edge('hub', 's1').id, g.edge('hub', 's2').id]);
      const [several] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['CITES', 'SUPERSEDES'] }));
      expect(several!.map((adjacent) => adjacent.edge.id)).toEqual([
        g.edge('hub', 's1').id,
        g.edge('hub', 's2').id,
        g.edge('s6', 'hub').id,
      ]);
    });

    it('returns nothing for a type no edge has', async () => {
      const g = await seed(star);
      expect(await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ types: ['FORMALIZES'] }))).toEqual([[]]);
    });

    it('leaves out edges weaker than minWeight', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ minWeight: 0.5 }));
      expect(hub!.map((adjacent) => adjacent.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6]);
    });

    it('leaves out pruned edges, including one exactly at the threshold', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency());
      const seen = hub!.map((adjacent) => adjacent.edge.id);
      expect(seen).not.toContain(g.edge('hub', 's5').id);
      expect(seen).not.toContain(g.edge('s7', 'hub').id);
    });

    it('includes pruned edges when includePruned is set', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ includePruned: true }));
      expect(hub).toHaveLength(7);
      expect(hub!.slice(-2).map((adjacent) => adjacent.edge.id)).toEqual([
        g.edge('s7', 'hub').id,
        g.edge('hub', 's5').id,
      ]);
    });

    it('takes the prune threshold from the query', async () => {
      const g = await seed(star);
      const [hub] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ pruneThreshold: 0.35 }));
      expect(hub!.map((adjacent) => adjacent.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6]);
      const [low] = await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ pruneThreshold: 0.01 }));
      expect(low).toHaveLength(7);
    });

    it('keeps the strongest limitPerMemory edges of each memory separately', async () => {
      const g = await seed(star);
      const result = await t.store.getAdjacent(
        WS,
        [g.id('hub'), g.id('s1'), g.id('s4')],
        adjacency({ limitPerMemory: 2 }),
      );
      const tieFirst = sortedIds([g.edge('hub', 's2').id, g.edge('hub', 's3').id])[0];
      expect(result.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
        [g.edge('hub', 's1').id, tieFirst],
        [g.edge('hub', 's1').id, g.edge('s1', 's2').id],
        [g.edge('hub', 's4').id],
      ]);
    });

    it('stops at maxRows for the whole call, filling memories in key order', async () => {
      const g = await seed(star);
      const ids = [g.id('hub'), g.id('s1'), g.id('s4')];
      const all = await t.store.getAdjacent(WS, ids, adjacency());
      expect(all.map((list) => list.length)).toEqual([5, 2, 1]);
      const capped = await t.store.getAdjacent(WS, ids, adjacency({ maxRows: 6 }));
      expect(capped.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
        all[0]!.map((adjacent) => adjacent.edge.id),
        [g.edge('hub', 's1').id],
        [],
      ]);
      const both = await t.store.getAdjacent(WS, ids, adjacency({ limitPerMemory: 2, maxRows: 3 }));
      expect(both.map((list) => list.map((adjacent) => adjacent.edge.id))).toEqual([
        all[0]!.slice(0, 2).map((adjacent) => adjacent.edge.id),
        [g.edge('hub', 's1').id],
        [],
      ]);
    });

    it('answers in key order, with an empty list for unknown and edgeless memories', async () => {
      const g = await seed(disconnected);
      const result = await t.store.getAdjacent(WS, [g.id('q'), newId(), g.id('z'), g.id('p')], adjacency());
      expect(result.map((list) => list.map((adjacent) => adjacent.neighbor.id))).toEqual([
        [g.id('p')],
        [],
        [],
        [g.id('q')],
      ]);
    });

    it('lists every edge between two memories joined several times', async () => {
      const g = await seed(parallel);
      const [a] = await t.store.getAdjacent(WS, [g.id('a')], adjacency());
      expect(a!.map((adjacent) => [adjacent.edge.type, adjacent.direction])).toEqual([
        ['CITES', 'OUTGOING'],
        ['EXTENDS', 'OUTGOING'],
        ['CONTRADICTS', 'INCOMING'],
        ['CITES', 'OUTGOING'],
      ]);
      expect(a!.map((adjacent) => adjacent.neighbor.id)).toEqual([g.id('c'), g.id('b'), g.id('b'), g.id('b')]);
    });

    it('sees nothing of another workspace', async () => {
      const g = await seed(star, OTHER);
      expect(await t.store.getAdjacent(WS, [g.id('hub')], adjacency({ includePruned: true }))).toEqual([[]]);
    });
  });

  describe('getMemoriesWithAdjacent', () => {
    /** What the one call must equal: getMemories, then getAdjacent over the memories found in reference order. */
    async function separately(refs: string[], query: ReturnType<typeof adjacency>) {
      const memories = await t.store.getMemories(WS, refs);
      const found = memories.filter((memory) => memory !== null);
      const lists = await t.store.getAdjacent(
        WS,
        found.map((memory) => memory.id),
        query,
      );
      let at = 0;
      return memories.map((memory) => (memory ? { memory, adjacent: lists[at++] } : null));
    }

    it('answers as getMemories and getAdjacent do, by id or key, in every direction and filter', async () => {
      const g = await seed(star);
      const refs = [g.id('hub'), 'star-s1', newId(), 'star-s5', g.id('hub')];
      const queries = [
        adjacency(),
        adjacency({ direction: 'OUTGOING', limitPerMemory: 2 }),
        adjacency({ direction: 'INCOMING', includePruned: true }),
        adjacency({ types: ['CITES'], minWeight: 0.5 }),
        adjacency({ maxRows: 3 }),
      ];
      for (const query of queries) {
        const together = await t.store.getMemoriesWithAdjacent(WS, refs, query);
        expect(together).toEqual(await separately(refs, query));
      }
      const [hub, spoke, missing, lone] = await t.store.getMemoriesWithAdjacent(WS, refs, adjacency());
      expect(hub?.adjacent.map((entry) => entry.edge.id)[0]).toBe(g.edge('hub', 's1').id);
      expect(spoke?.memory.id).toBe(g.id('s1'));
      expect(missing).toBeNull();
      // s5's only edge is pruned: the memory is found, with no neighbours.
      expect(lone).toEqual({ memory: g.memories.s5, adjacent: [] });
    });

    it('keeps other workspaces out and answers nothing for no references', async () => {
      const g = await seed(star);
      expect(await t.store.getMemoriesWithAdjacent(OTHER, [g.id('hub'), 'star-hub'], adjacency())).toEqual([
        null,
        null,
      ]);
      expect(await t.store.getMemoriesWithAdjacent(WS, [], adjacency())).toEqual([]);
    });
  });

  describe('countAdjacent', () => {
    it('counts edges per direction, without pruned ones', async () => {
      const g = await seed(star);
      const hub = [g.id('hub')];
      expect(await t.store.countAdjacent(WS, hub, degree({ direction: 'BOTH' }))).toEqual([5]);
      expect(await t.store.countAdjacent(WS, hub, degree({ direction: 'OUTGOING' }))).toEqual([4]);
      expect(await t.store.countAdjacent(WS, hub, degree({ direction: 'INCOMING' }))).toEqual([1]);
    });

    it('counts pruned edges when includePruned is set', async () => {
      const g = await seed(star);
      const hub = [g.id('hub')];
      expect(await t.store.countAdjacent(WS, hub, degree({ includePruned: true }))).toEqual([7]);
      expect(await t.store.countAdjacent(WS, hub, degree({ direction: 'INCOMING', includePruned: true }))).toEqual([2]);
    });

    it('takes the prune threshold from the query', async () => {
      const g = await seed(star);
      expect(await t.store.countAdjacent(WS, [g.id('hub')], degree({ pruneThreshold: 0.35 }))).toEqual([4]);
    });

    it('counts only the given relation types', async () => {
      const g = await seed(star);
      const hub = [g.id('hub')];
      expect(await t.store.countAdjacent(WS, hub, degree({ types: ['CITES'] }))).toEqual([2]);
      expect(await t.store.countAdjacent(WS, hub, degree({ types: ['CITES'], includePruned: true }))).toEqual([3]);
      expect(await t.store.countAdjacent(WS, hub, degree({ types: ['CITES', 'SUPERSEDES'] }))).toEqual([3]);
    });

    it('answers in key order with 0 for unknown and edgeless memories', async () => {
      const g = await seed(star);
      const result = await t.store.countAdjacent(WS, [g.id('s1'), newId(), g.id('hub'), g.id('s5')], degree());
      expect(result).toEqual([2, 0, 5, 0]);
    });

    it('counts nothing of another workspace', async () => {
      const g = await seed(star, OTHER);
      expect(await t.store.countAdjacent(WS, [g.id('hub')], degree({ includePruned: true }))).toEqual([0]);
    });
  });

  describe('expandFrontier', () => {
    const stepKeys = (steps: readonly { from: string; to: string; edgeId: string }[]) =>
      steps.map((step) => `${step.from}>${step.to}#${step.edgeId}`).sort();

    it('follows OUTGOING edges from the frontier to their targets, with edge id and weight', async () => {
      const g = await seed(star);
      const expansion = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ direction: 'OUTGOING' }));
      expect(expansion.truncated).toBe(false);
      expect(stepKeys(expansion.steps)).toEqual(
        stepKeys(
          ['s1', 's2', 's3', 's4'].map((spoke) => ({
            from: g.id('hub'),
            to: g.id(spoke),
            edgeId: g.edge('hub', spoke).id,
          })),
        ),
      );
      const s1 = expansion.steps.find((step) => step.to === g.id('s1'));
      expect(s1?.weight).toBe(0.9);
    });

    it('follows INCOMING edges from the frontier back to their sources', async () => {
      const g = await seed(star);
      const expansion = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ direction: 'INCOMING' }));
      expect(expansion.steps).toEqual([
        { from: g.id('hub'), to: g.id('s6'), edgeId: g.edge('s6', 'hub').id, weight: 0.6 },
      ]);
    });

    it('ignores direction for BOTH', async () => {
      const g = await seed(cycle);
      const expansion = await t.store.expandFrontier(WS, [g.id('a')], frontier({ direction: 'BOTH' }));
      expect(stepKeys(expansion.steps)).toEqual(
        stepKeys([
          { from: g.id('a'), to: g.id('b'), edgeId: g.edge('a', 'b').id },
          { from: g.id('a'), to: g.id('c'), edgeId: g.edge('c', 'a').id },
        ]),
      );
    });

    it('expands every memory of the frontier in one call', async () => {
      const g = await seed(star);
      const expansion = await t.store.expandFrontier(WS, [g.id('s1'), g.id('s6')], frontier({ direction: 'OUTGOING' }));
      expect(stepKeys(expansion.steps)).toEqual(
        stepKeys([
          { from: g.id('s1'), to: g.id('s2'), edgeId: g.edge('s1', 's2').id },
          { from: g.id('s6'), to: g.id('hub'), edgeId: g.edge('s6', 'hub').id },
        ]),
      );
    });

    it('keeps only the given relation types', async () => {
      const g = await seed(star);
      const expansion = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ types: ['CITES'] }));
      expect(sortedIds(expansion.steps.map((step) => step.edgeId))).toEqual(
        sortedIds([g.edge('hub', 's1').id, g.edge('hub', 's2').id]),
      );
    });

    it('skips pruned edges, using the threshold from the query', async () => {
      const g = await seed(star);
      const expansion = await t.store.expandFrontier(WS, [g.id('hub')], frontier());
      const seen = expansion.steps.map((step) => step.edgeId);
      expect(seen).toHaveLength(5);
      expect(seen).not.toContain(g.edge('hub', 's5').id);
      expect(seen).not.toContain(g.edge('s7', 'hub').id);
      const stricter = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ pruneThreshold: 0.35 }));
      expect(stricter.steps.map((step) => step.edgeId)).not.toContain(g.edge('hub', 's4').id);
      expect(stricter.steps).toHaveLength(4);
    });

    it('returns at most budget steps and says it truncated', async () => {
      const g = await seed(star);
      const all = await t.store.expandFrontier(WS, [g.id('hub')], frontier());
      const cut = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ budget: 3 }));
      expect(cut.truncated).toBe(true);
      expect(cut.steps).toHaveLength(3);
      const allKeys = stepKeys(all.steps);
      for (const key of stepKeys(cut.steps)) expect(allKeys).toContain(key);
    });

    it('leaves out a memory whose kept edges outweigh its maxTotalWeight entry', async () => {
      const g = await seed(star);
      const ids = [g.id('hub'), g.id('s1')];
      const all = await t.store.expandFrontier(WS, ids, frontier({ direction: 'OUTGOING' }));
      const hubTotal = all.steps
        .filter((step) => step.from === g.id('hub'))
        .reduce((sum, step) => sum + step.weight, 0);
      const fromS1 = stepKeys(all.steps.filter((step) => step.from === g.id('s1')));
      expect(fromS1).toHaveLength(1);
      const capped = (cap: number, query: Partial<FrontierQuery> = {}) =>
        t.store.expandFrontier(
          WS,
          ids,
          frontier({ direction: 'OUTGOING', maxTotalWeight: new Map([[g.id('hub'), cap]]), ...query }),
        );
      // Over its cap the hub is not expanded; s1, without an entry, is; at its cap the hub is.
      const over = await capped(hubTotal - 0.01);
      expect(stepKeys(over.steps)).toEqual(fromS1);
      expect(stepKeys((await capped(hubTotal + 1e-9)).steps)).toEqual(stepKeys(all.steps));
      // The weight counted is that of the edges the query keeps: only the CITES ones here.
      const cites = await capped(hubTotal - 0.01, { types: ['CITES'] });
      expect(sortedIds(cites.steps.map((step) => step.edgeId))).toEqual(
        sortedIds([g.edge('hub', 's1').id, g.edge('hub', 's2').id]),
      );
      // The edges read to weigh a memory left out count against the budget, as if returned.
      const read = all.steps.length;
      const enough = await capped(hubTotal - 0.01, { budget: read });
      expect(enough.truncated).toBe(false);
      expect(enough.examined).toBe(read);
      expect(stepKeys(enough.steps)).toEqual(fromS1);
      const short = await capped(hubTotal - 0.01, { budget: read - 2 });
      expect(short.truncated).toBe(true);
      expect(short.steps.length).toBeLessThanOrEqual(read - 2);
    });

    it('weighs a memory by the edges of both directions the query keeps, pruned ones left out', async () => {
      const g = await seed(star);
      const hub = g.id('hub');
      const both = await t.store.expandFrontier(WS, [hub], frontier({ direction: 'BOTH' }));
      // hub's four unpruned edges out and its one unpruned edge in (s6); hub->s5 and s7->hub are pruned.
      expect(both.steps).toHaveLength(5);
      const total = both.steps.reduce((sum, step) => sum + step.weight, 0);
      const capped = (cap: number) =>
        t.store.expandFrontier(WS, [hub], frontier({ direction: 'BOTH', maxTotalWeight: new Map([[hub, cap]]) }));
      expect((await capped(total + 1e-9)).steps).toHaveLength(5);
      const over = await capped(total - 0.01);
      expect(over.steps).toEqual([]);
      expect(over.examined).toBe(5);
    });

    it('does not flag truncation when the budget is exactly enough', async () => {
      const g = await seed(star);
      const exact = await t.store.expandFrontier(WS, [g.id('hub')], frontier({ budget: 5 }));
      expect(exact.steps).toHaveLength(5);
      expect(exact.truncated).toBe(false);
    });

    it('returns no steps for an empty frontier or unknown memories', async () => {
      await seed(star);
      expect(await t.store.expandFrontier(WS, [], frontier())).toEqual({ steps: [], truncated: false });
      expect(await t.store.expandFrontier(WS, [newId()], frontier())).toEqual({ steps: [], truncated: false });
    });

    it('walks nothing of another workspace', async () => {
      const g = await seed(star, OTHER);
      expect(await t.store.expandFrontier(WS, [g.id('hub')], frontier())).toEqual({ steps: [], truncated: false });
    });
  });

  it(`${offersShortestPath ? 'offers' : 'does not offer'} the optional one-call shortestPath, as its harness declares`, () => {
    expect(typeof t.store.shortestPath).toBe(offersShortestPath ? 'function' : 'undefined');
  });

  if (!offersShortestPath) return;

  describe('shortestPath', () => {
    const fixtures = [chain, diamond, cycle, star, disconnected];
    const directions = ['OUTGOING', 'INCOMING', 'BOTH'] as const;

    /** The store as findShortestPath sees one without the method: a walk of expandFrontier calls. */
    const levelByLevel = (store: GraphStore): GraphStore =>
      new Proxy(store, {
        get(target, property) {
          if (property === 'shortestPath') return undefined;
          const value = Reflect.get(target, property) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });

    it("gives findShortestPath's answer (same hops, same choice among equals, same budget outcome) on every fixture", async () => {
      const shortestPath = t.store.shortestPath as NonNullable<GraphStore['shortestPath']>;
      const walker = levelByLevel(t.store);
      let compared = 0;
      for (const fixture of fixtures) {
        const g = await seed(fixture, fixture.name);
        const ids = fixture.memories.map((memory) => g.id(memory.name));
        const typeFilters = [null, [fixture.edges[0]?.type ?? 'RELATED_TO']];
        for (const from of ids)
          for (const to of ids)
            for (const direction of directions)
              for (const types of typeFilters)
                for (const budget of [1_000, 2]) {
                  if (from === to) continue;
                  const query = { direction, types, pruneThreshold: THRESHOLD, budget };
                  const expected = await findShortestPath(walker, fixture.name, from, to, 6, query);
                  const answer = await shortestPath.call(t.store, fixture.name, from, to, 6, query);
                  expect(answer, `${fixture.name} ${from} -> ${to} ${direction} ${types} budget ${budget}`).toEqual(
                    expected,
                  );
                  compared++;
                }
      }
      expect(compared).toBeGreaterThan(500);
    });

    it('stops at maxHops exactly as the walk does (the chain, 1 to 4 hops)', async () => {
      const shortestPath = t.store.shortestPath as NonNullable<GraphStore['shortestPath']>;
      const g = await seed(chain);
      const query = { direction: 'OUTGOING' as const, types: null, pruneThreshold: THRESHOLD, budget: 100 };
      for (const maxHops of [1, 2, 3, 4]) {
        const expected = await findShortestPath(levelByLevel(t.store), WS, g.id('a'), g.id('e'), maxHops, query);
        expect(await shortestPath.call(t.store, WS, g.id('a'), g.id('e'), maxHops, query)).toEqual(expected);
      }
    });
  });
}
