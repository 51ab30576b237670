import { describe, expect, it } from 'vitest';
import { EngramError } from '../../../src/domain/errors.js';
import { newId } from '../../../src/domain/ids.js';
import { chain, disconnected, parallel, star } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import {
  BOUNDS,
  edgeChange,
  expectCode,
  linkRequest,
  OTHER,
  POLICY,
  rejection,
  set,
  sortedIds,
  T1,
  T2,
  T3,
  THRESHOLD,
  WS,
} from '../contract-kit.js';

/** The GraphStore contract, edges: read by id, triple and pair, linked (created or confirmed) and unlinked. */
export function edgeCases(t: ContractContext): void {
  const { seed, createMemory, link, weightOf } = t;

  describe('getEdges', () => {
    it('returns every field as it was created', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const request = linkRequest(a.id, b.id, 'CITES', { weight: 0.65, metadata: { page: 12, quote: 'it "works"' } });
      await t.store.linkEdge(WS, request, T1);
      const [edge] = await t.store.getEdges(WS, [request.id]);
      expect(edge).toMatchObject({
        id: request.id,
        fromId: a.id,
        toId: b.id,
        type: 'CITES',
        weight: 0.65,
        metadata: { page: 12, quote: 'it "works"' },
        createdAt: T1,
        updatedAt: T1,
      });
    });

    it('answers in key order with null for missing ids', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b').id;
      const cd = g.edge('c', 'd').id;
      const result = await t.store.getEdges(WS, [cd, newId(), ab]);
      expect(result.map((edge) => edge?.id ?? null)).toEqual([cd, null, ab]);
    });

    it('keeps the edges of another workspace invisible', async () => {
      const g = await seed(chain, OTHER);
      expect(await t.store.getEdges(WS, [g.edge('a', 'b').id])).toEqual([null]);
    });
  });

  describe('findEdge', () => {
    it('finds the edge of exactly this triple', async () => {
      const g = await seed(parallel);
      const found = await t.store.findEdge(WS, g.id('a'), g.id('b'), 'EXTENDS');
      expect(found).toEqual(g.edge('a', 'b', 'EXTENDS'));
    });

    it('answers null for the reverse direction or another type', async () => {
      const g = await seed(parallel);
      expect(await t.store.findEdge(WS, g.id('b'), g.id('a'), 'EXTENDS')).toBeNull();
      expect(await t.store.findEdge(WS, g.id('a'), g.id('b'), 'CONTRADICTS')).toBeNull();
      expect(await t.store.findEdge(WS, g.id('a'), newId(), 'CITES')).toBeNull();
    });

    it('answers null for an edge of another workspace', async () => {
      const g = await seed(parallel, OTHER);
      expect(await t.store.findEdge(WS, g.id('a'), g.id('b'), 'EXTENDS')).toBeNull();
    });
  });

  describe('edgesBetween', () => {
    it('returns edges in both directions, strongest first', async () => {
      const g = await seed(parallel);
      const expected = [g.edge('a', 'b', 'EXTENDS'), g.edge('b', 'a', 'CONTRADICTS'), g.edge('a', 'b', 'CITES')];
      expect(await t.store.edgesBetween(WS, g.id('a'), g.id('b'), null)).toEqual(expected);
      expect(await t.store.edgesBetween(WS, g.id('b'), g.id('a'), null)).toEqual(expected);
    });

    it('breaks weight ties by edge id', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const ids = [newId(), newId()];
      await link(b.id, a.id, 'CITES', { id: ids[1]!, weight: 0.5 });
      await link(a.id, b.id, 'CITES', { id: ids[0]!, weight: 0.5 });
      const between = await t.store.edgesBetween(WS, a.id, b.id, null);
      expect(between.map((edge) => edge.id)).toEqual(sortedIds(ids));
    });

    it('keeps only the given relation types', async () => {
      const g = await seed(parallel);
      const between = await t.store.edgesBetween(WS, g.id('a'), g.id('b'), ['CITES', 'CONTRADICTS']);
      expect(between.map((edge) => edge.id)).toEqual([
        g.edge('b', 'a', 'CONTRADICTS').id,
        g.edge('a', 'b', 'CITES').id,
      ]);
    });

    it('returns pruned edges too', async () => {
      const g = await seed(star);
      const between = await t.store.edgesBetween(WS, g.id('hub'), g.id('s5'), null);
      expect(between.map((edge) => edge.id)).toEqual([g.edge('hub', 's5').id]);
    });

    it('returns an empty list when the memories are not joined', async () => {
      const g = await seed(parallel);
      expect(await t.store.edgesBetween(WS, g.id('b'), g.id('c'), null)).toEqual([]);
    });

    it('sees nothing of another workspace', async () => {
      const g = await seed(parallel, OTHER);
      expect(await t.store.edgesBetween(WS, g.id('a'), g.id('b'), null)).toEqual([]);
    });
  });

  describe('edgesAmong', () => {
    it('lists the unpruned edges with both ends among the memories, either direction, by id', async () => {
      const g = await seed(star);
      const among = await t.store.edgesAmong(WS, [g.id('s2'), g.id('hub'), g.id('s1'), g.id('s5'), g.id('s6')], {
        pruneThreshold: THRESHOLD,
        limit: 100,
      });
      const expected = [g.edge('hub', 's1'), g.edge('hub', 's2'), g.edge('s1', 's2'), g.edge('s6', 'hub')].map(
        (edge) => edge.id,
      );
      expect(among.map((edge) => edge.id)).toEqual(sortedIds(expected));
      expect(among.find((edge) => edge.id === g.edge('s6', 'hub').id)).toEqual(g.edge('s6', 'hub'));
    });

    it('returns at most limit edges, nothing for fewer than two memories, and nothing of another workspace', async () => {
      const g = await seed(star);
      expect(
        await t.store.edgesAmong(WS, [g.id('hub'), g.id('s1'), g.id('s2')], { pruneThreshold: THRESHOLD, limit: 2 }),
      ).toHaveLength(2);
      expect(await t.store.edgesAmong(WS, [g.id('hub')], { pruneThreshold: THRESHOLD, limit: 10 })).toEqual([]);
      expect(
        await t.store.edgesAmong(OTHER, [g.id('hub'), g.id('s1')], { pruneThreshold: THRESHOLD, limit: 10 }),
      ).toEqual([]);
    });
  });

  describe('linkEdge', () => {
    it('creates an edge with the default weight when none is given', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const request = linkRequest(a.id, b.id, 'CAUSED_BY', { metadata: { why: 'test' } });
      const { edge, created } = await t.store.linkEdge(WS, request, T1);
      expect(created).toBe(true);
      expect(edge).toMatchObject({
        id: request.id,
        fromId: a.id,
        toId: b.id,
        type: 'CAUSED_BY',
        weight: POLICY.defaultEdgeWeight,
        metadata: { why: 'test' },
        createdAt: T1,
        updatedAt: T1,
      });
      expect(await t.inspect.rawEdge(WS, request.id)).toMatchObject({
        id: request.id,
        fromId: a.id,
        toId: b.id,
        type: 'CAUSED_BY',
        weight: POLICY.defaultEdgeWeight,
        metadata: { why: 'test' },
      });
    });

    it('creates an edge with the given weight', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const { edge } = await link(a.id, b.id, 'CITES', { weight: 0.85 });
      expect(edge.weight).toBe(0.85);
      expect(await weightOf(WS, edge.id)).toBe(0.85);
    });

    it('confirms an existing edge: created false, the original id, lastConfirmedAt now, no new row', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', {}, WS, T1);
      const again = await link(a.id, b.id, 'CITES', {}, WS, T2);
      expect(again.created).toBe(false);
      expect(again.edge.id).toBe(first.edge.id);
      expect(again.edge.lastConfirmedAt).toBe(T2);
      expect(again.edge.createdAt).toBe(T1);
      expect(again.edge.weight).toBe(POLICY.defaultEdgeWeight);
      expect(await t.inspect.countRows('edges', WS)).toBe(1);
      expect((await t.inspect.rawEdge(WS, first.edge.id))?.lastConfirmedAt).toBe(T2);
      expect((await t.store.getEdges(WS, [first.edge.id]))[0]?.lastConfirmedAt).toBe(T2);
    });

    it('shallow-merges metadata into the stored object when confirming', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { metadata: { keep: 1, replace: 'old', nested: { x: 1 } } });
      const again = await link(
        a.id,
        b.id,
        'CITES',
        { metadata: { replace: 'new', added: true, nested: { y: 2 } } },
        WS,
        T1,
      );
      const merged = { keep: 1, replace: 'new', added: true, nested: { y: 2 } };
      expect(again.edge.metadata).toEqual(merged);
      expect((await t.inspect.rawEdge(WS, first.edge.id))?.metadata).toEqual(merged);
    });

    it('refuses a confirm whose merged metadata passes 4096 bytes with BAD_USER_INPUT and writes nothing', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { metadata: { k0: 'x'.repeat(4000) } }, WS, T1);
      const before = await t.inspect.rawEdge(WS, first.edge.id);
      const eventsBefore = await t.inspect.countRows('weight_events', WS);
      // Each request alone is under the limit; merged with what is stored, it is not.
      const error = await rejection(
        link(a.id, b.id, 'CITES', { metadata: { k1: 'y'.repeat(4000) }, weight: 0.9 }, WS, T2),
      );
      expect(error).toBeInstanceOf(EngramError);
      expect((error as EngramError).code).toBe('BAD_USER_INPUT');
      expect((error as EngramError).message).toMatch(/^input\.metadata: .*merged.*4096 bytes/);
      expect(await t.inspect.rawEdge(WS, first.edge.id)).toEqual(before);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(eventsBefore);
      // A confirm that keeps the merged result under the limit still goes through.
      const replaced = await link(a.id, b.id, 'CITES', { metadata: { k0: 'short', k1: 'y'.repeat(4000) } }, WS, T3);
      expect(replaced.edge.metadata).toEqual({ k0: 'short', k1: 'y'.repeat(4000) });
    });

    it('keeps the stored metadata when confirming without metadata', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { metadata: { keep: 1 } });
      const again = await link(a.id, b.id, 'CITES', { metadata: null }, WS, T1);
      expect(again.edge.metadata).toEqual({ keep: 1 });
      expect((await t.inspect.rawEdge(WS, first.edge.id))?.metadata).toEqual({ keep: 1 });
    });

    it('keeps the weight when confirming without a weight, and writes no event', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { weight: 0.7 });
      const events = await t.inspect.countRows('weight_events', WS);
      const again = await link(a.id, b.id, 'CITES', { weight: null }, WS, T1);
      expect(again.edge.weight).toBe(0.7);
      expect(await weightOf(WS, first.edge.id)).toBe(0.7);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(events);
    });

    it('sets a different weight when confirming and writes one MANUAL event', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { weight: 0.4 });
      const eventsBefore = await t.inspect.countRows('weight_events', WS);
      const eventId = newId();
      const again = await link(a.id, b.id, 'CITES', { weight: 0.9, reason: 'confirmed twice', eventId }, WS, T2);
      expect(again.edge.weight).toBe(0.9);
      expect(await weightOf(WS, first.edge.id)).toBe(0.9);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(eventsBefore + 1);
      const raw = (await t.inspect.rawWeightEvents(WS)).find((event) => event.id === eventId);
      expect(raw).toMatchObject({
        edgeId: first.edge.id,
        memoryId: null,
        source: 'MANUAL',
        reason: 'confirmed twice',
        revertedBy: null,
      });
      expect(raw?.old).toBeCloseTo(0.4, 10);
      expect(raw?.new).toBeCloseTo(0.9, 10);
      expect(raw?.delta).toBeCloseTo(0.5, 10);
      const [event] = await t.store.getWeightEvents(WS, [eventId]);
      expect(event).toMatchObject({ id: eventId, at: T2, source: 'MANUAL', edgeId: first.edge.id });
    });

    it('writes no event when confirming with the weight the edge already has', async () => {
      const a = await createMemory();
      const b = await createMemory();
      await link(a.id, b.id, 'CITES', { weight: 0.4 });
      const eventsBefore = await t.inspect.countRows('weight_events', WS);
      await link(a.id, b.id, 'CITES', { weight: 0.4 }, WS, T1);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(eventsBefore);
    });

    it('treats the reverse direction and another type as different edges', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const forward = await link(a.id, b.id, 'CITES');
      const reverse = await link(b.id, a.id, 'CITES');
      const otherType = await link(a.id, b.id, 'EXTENDS');
      expect([forward.created, reverse.created, otherType.created]).toEqual([true, true, true]);
      expect(new Set([forward.edge.id, reverse.edge.id, otherType.edge.id]).size).toBe(3);
      expect(await t.inspect.countRows('edges', WS)).toBe(3);
    });

    it('makes exactly one edge under 30 concurrent identical calls', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const results = await Promise.all(
        Array.from({ length: 30 }, () => t.store.linkEdge(WS, linkRequest(a.id, b.id, 'CAUSED_BY'), T1)),
      );
      const ids = new Set(results.map((result) => result.edge.id));
      expect(ids.size).toBe(1);
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(await t.inspect.countRows('edges', WS)).toBe(1);
      expect((await t.inspect.rawEdges(WS))[0]?.id).toBe([...ids][0]);
    });

    it('rejects a missing endpoint with NOT_FOUND and creates nothing', async () => {
      const a = await createMemory();
      await expectCode(link(a.id, newId(), 'CITES'), 'NOT_FOUND');
      await expectCode(link(newId(), a.id, 'CITES'), 'NOT_FOUND');
      expect(await t.inspect.countRows('edges', WS)).toBe(0);
    });

    it('cannot link memories of another workspace', async () => {
      const g = await seed(disconnected, OTHER);
      const here = await createMemory();
      await expectCode(link(g.id('z'), g.id('p'), 'CITES'), 'NOT_FOUND');
      await expectCode(link(here.id, g.id('z'), 'CITES'), 'NOT_FOUND');
      expect(await t.inspect.countRows('edges', WS)).toBe(0);
      expect(await t.inspect.countRows('edges', OTHER)).toBe(2);
    });

    it('cannot confirm or reweigh an edge of another workspace', async () => {
      const g = await seed(disconnected, OTHER);
      const pq = g.edge('p', 'q');
      const eventsThere = await t.inspect.countRows('weight_events', OTHER);
      await expectCode(
        link(g.id('p'), g.id('q'), 'RELATED_TO', { weight: 0.9, metadata: { x: 1 } }, WS, T2),
        'NOT_FOUND',
      );
      expect(await t.inspect.rawEdge(OTHER, pq.id)).toMatchObject({
        weight: 0.5,
        lastConfirmedAt: pq.lastConfirmedAt,
        metadata: pq.metadata,
      });
      expect(await t.inspect.countRows('weight_events', OTHER)).toBe(eventsThere);
      expect(await t.inspect.countRows('edges', WS)).toBe(0);
    });
  });

  describe('unlinkEdges', () => {
    it('removes an edge by id and returns it as it was', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const [before] = await t.store.getEdges(WS, [ab.id]);
      const removed = await t.store.unlinkEdges(WS, { id: ab.id });
      expect(removed).toEqual([before]);
      expect(await t.inspect.rawEdge(WS, ab.id)).toBeNull();
      expect(await t.inspect.countRows('edges', WS)).toBe(3);
    });

    it('removes an edge by triple and returns it as it was', async () => {
      const g = await seed(parallel);
      const cites = g.edge('a', 'b', 'CITES');
      const [before] = await t.store.getEdges(WS, [cites.id]);
      const removed = await t.store.unlinkEdges(WS, { fromId: g.id('a'), toId: g.id('b'), type: 'CITES' });
      expect(removed).toEqual([before]);
      expect(await t.inspect.rawEdge(WS, cites.id)).toBeNull();
      expect(await t.inspect.rawEdge(WS, g.edge('a', 'b', 'EXTENDS').id)).not.toBeNull();
      expect(await t.inspect.countRows('edges', WS)).toBe(3);
    });

    it('returns the weight the edge had at removal', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      await t.store.applyWeightChanges(WS, [edgeChange(ab.id, set(0.2))], BOUNDS, T1);
      const [removed] = await t.store.unlinkEdges(WS, { id: ab.id });
      expect(removed?.weight).toBeCloseTo(0.2, 10);
    });

    it('returns an empty list when nothing matches, including the reverse triple', async () => {
      const g = await seed(chain);
      expect(await t.store.unlinkEdges(WS, { id: newId() })).toEqual([]);
      expect(await t.store.unlinkEdges(WS, { fromId: g.id('b'), toId: g.id('a'), type: 'CAUSED_BY' })).toEqual([]);
      expect(await t.inspect.countRows('edges', WS)).toBe(4);
    });

    it('cannot remove an edge of another workspace, by id or by triple', async () => {
      const g = await seed(chain, OTHER);
      const ab = g.edge('a', 'b');
      expect(await t.store.unlinkEdges(WS, { id: ab.id })).toEqual([]);
      expect(await t.store.unlinkEdges(WS, { fromId: g.id('a'), toId: g.id('b'), type: 'CAUSED_BY' })).toEqual([]);
      expect(await t.inspect.rawEdge(OTHER, ab.id)).not.toBeNull();
      expect(await t.inspect.countRows('edges', OTHER)).toBe(4);
    });
  });
}
