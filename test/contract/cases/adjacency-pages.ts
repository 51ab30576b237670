import { describe, expect, it } from 'vitest';
import type { AdjacentEdge } from '../../../src/domain/types.js';
import { strongestFirst } from '../../../src/store/key-order.js';
import type { AdjacencyPageQuery } from '../../../src/store/port.js';
import type { ContractContext, RawEdge } from '../contract-kit.js';
import { OTHER, THRESHOLD, WS } from '../contract-kit.js';

const pageQuery = (query: Partial<AdjacencyPageQuery> = {}): AdjacencyPageQuery => ({
  direction: 'BOTH',
  types: null,
  minWeight: null,
  includePruned: false,
  pruneThreshold: THRESHOLD,
  after: null,
  limit: 3,
  ...query,
});

/** Weights of the hub's spokes: ties at 0.5 and 0.7, two pruned edges. */
const SPOKES = [0.5, 0.7, 0.5, 0.03, 0.9, 0.5, 0.7, 0.5, 0.05, 0.2, 0.5, 0.5];

/** The GraphStore contract, getAdjacentPage: getAdjacent's order and filters, a keyset page at a time. */
export function adjacencyPageCases(t: ContractContext): void {
  const { createMemory, link } = t;

  /** A hub with spokes in both directions, two relation types, and an edge from itself to itself. */
  async function hub(workspace = WS) {
    const center = await createMemory({ title: 'hub' }, workspace);
    for (const [at, weight] of SPOKES.entries()) {
      const spoke = await createMemory({ title: `spoke ${at}` }, workspace);
      const [from, to] = at % 3 === 1 ? [spoke.id, center.id] : [center.id, spoke.id];
      await link(from, to, at % 2 === 0 ? 'CITES' : 'RELATED_TO', { weight }, workspace);
    }
    // The API refuses a self-loop; a store may still hold one (written before that rule).
    await link(center.id, center.id, 'CITES', { weight: 0.5 }, workspace);
    return center.id;
  }

  /** What a page walk must list, computed from the stored edges read directly. */
  async function expected(anchor: string, query: AdjacencyPageQuery, workspace = WS): Promise<RawEdge[]> {
    const raw = await t.inspect.rawEdges(workspace);
    return raw
      .filter((edge) => {
        const out = edge.fromId === anchor;
        const into = edge.toId === anchor;
        const side = query.direction === 'OUTGOING' ? out : query.direction === 'INCOMING' ? into : out || into;
        return (
          side &&
          (query.types === null || query.types.includes(edge.type)) &&
          (query.includePruned || edge.weight > query.pruneThreshold) &&
          edge.weight >= (query.minWeight ?? -1)
        );
      })
      .sort(strongestFirst);
  }

  /** Every page from the start, each after the last entry of the one before. */
  async function walk(anchor: string, query: AdjacencyPageQuery): Promise<AdjacentEdge[]> {
    const seen: AdjacentEdge[] = [];
    for (let pages = 0; pages < 100; pages++) {
      const last = seen.at(-1);
      const after = last ? { weight: last.edge.weight, edgeId: last.edge.id } : null;
      const [page = []] = await t.store.getAdjacentPage(WS, [anchor], { ...query, after });
      expect(page.length).toBeLessThanOrEqual(query.limit);
      if (page.length === 0) return seen;
      seen.push(...page);
    }
    throw new Error('did not end');
  }

  describe('getAdjacentPage', () => {
    it('walks ties strongest first, then by edge id, for every page size, listing a self-loop once', async () => {
      const anchor = await hub();
      const want = await expected(anchor, pageQuery());
      expect(want).toHaveLength(11);
      for (const limit of [1, 2, 3, 5, 50]) {
        const seen = await walk(anchor, pageQuery({ limit }));
        expect(seen.map((entry) => entry.edge.id)).toEqual(want.map((edge) => edge.id));
      }
      const seen = await walk(anchor, pageQuery({ limit: 4 }));
      const loop = seen.filter((entry) => entry.neighbor.id === anchor);
      expect(loop).toHaveLength(1);
      expect(loop[0]?.direction).toBe('OUTGOING');
      for (const entry of seen) {
        const { fromId, toId } = entry.edge;
        expect(entry.direction === 'OUTGOING' ? [fromId, toId] : [toId, fromId]).toEqual([anchor, entry.neighbor.id]);
      }
    });

    it('keeps to a direction, types, minWeight and includePruned as getAdjacent does', async () => {
      const anchor = await hub();
      const queries = [
        pageQuery({ direction: 'OUTGOING' }),
        pageQuery({ direction: 'INCOMING', limit: 1 }),
        pageQuery({ types: ['CITES'], limit: 2 }),
        pageQuery({ types: ['RELATED_TO', 'CITES'], direction: 'OUTGOING' }),
        pageQuery({ minWeight: 0.5 }),
        pageQuery({ includePruned: true, limit: 4 }),
        pageQuery({ includePruned: true, minWeight: 0.04, direction: 'INCOMING' }),
        pageQuery({ types: ['UNUSED'] }),
      ];
      for (const query of queries) {
        const seen = await walk(anchor, query);
        expect(seen.map((entry) => entry.edge.id)).toEqual((await expected(anchor, query)).map((edge) => edge.id));
        for (const entry of seen) if (query.direction !== 'BOTH') expect(entry.direction).toBe(query.direction);
      }
      const [unpaged = []] = await t.store.getAdjacent(WS, [anchor], {
        ...pageQuery({ direction: 'OUTGOING' }),
        limitPerMemory: 100,
      });
      expect(await walk(anchor, pageQuery({ direction: 'OUTGOING' }))).toEqual(unpaged);
    });

    it('starts after a position whose edge is gone, and ends with an empty page', async () => {
      const anchor = await hub();
      const want = await expected(anchor, pageQuery());
      const cut = want[4] as RawEdge;
      await t.store.unlinkEdges(WS, { id: cut.id });
      const [rest = []] = await t.store.getAdjacentPage(WS, [anchor], {
        ...pageQuery({ limit: 50 }),
        after: { weight: cut.weight, edgeId: cut.id },
      });
      expect(rest.map((entry) => entry.edge.id)).toEqual(want.slice(5).map((edge) => edge.id));
      const last = want.at(-1) as RawEdge;
      expect(
        await t.store.getAdjacentPage(WS, [anchor], {
          ...pageQuery(),
          after: { weight: last.weight, edgeId: last.id },
        }),
      ).toEqual([[]]);
    });

    it('answers many memories in key order, each its own page, within the workspace', async () => {
      const anchor = await hub();
      const elsewhere = await hub(OTHER);
      const lonely = await createMemory({ title: 'no edges' });
      const want = await expected(anchor, pageQuery());
      const lists = await t.store.getAdjacentPage(WS, [lonely.id, anchor, 'missing', elsewhere, anchor], pageQuery());
      const firstThree = want.slice(0, 3).map((edge) => edge.id);
      expect(lists.map((list) => list.map((entry) => entry.edge.id))).toEqual([[], firstThree, [], [], firstThree]);
    });
  });
}
