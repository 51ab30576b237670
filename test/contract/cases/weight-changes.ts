import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import { chain } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import {
  BOUNDS,
  byId,
  delta,
  edgeChange,
  eventFilter,
  expectCode,
  expectOneChain,
  memoryChange,
  OTHER,
  POLICY,
  set,
  sortedIds,
  T1,
  T2,
  T3,
  WS,
} from '../contract-kit.js';

/** The GraphStore contract, weight changes: atomic clamped read-modify-writes with their events. */
export function weightChangeCases(t: ContractContext): void {
  const { seed, weightOf } = t;

  describe('applyWeightChanges', () => {
    it('applies a delta to an edge and writes one event', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const change = edgeChange(ab.id, delta(-0.3), { source: 'CONSCIOUS', reason: 'user corrected' });
      const [applied] = await t.store.applyWeightChanges(WS, [change], BOUNDS, T1);
      expect(applied?.previousWeight).toBeCloseTo(0.5, 10);
      expect(applied?.newWeight).toBeCloseTo(0.2, 10);
      expect(applied?.edge?.id).toBe(ab.id);
      expect(applied?.edge?.weight).toBeCloseTo(0.2, 10);
      expect(applied?.memory).toBeNull();
      expect(applied?.event).toMatchObject({
        id: change.eventId,
        at: T1,
        source: 'CONSCIOUS',
        edgeId: ab.id,
        memoryId: null,
        reason: 'user corrected',
        revertedBy: null,
      });
      expect(applied?.event.old).toBeCloseTo(0.5, 10);
      expect(applied?.event.new).toBeCloseTo(0.2, 10);
      expect(applied?.event.delta).toBeCloseTo(-0.3, 10);
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.2, 10);
      const raw = (await t.inspect.rawWeightEvents(WS)).find((event) => event.id === change.eventId);
      expect(raw).toMatchObject({
        edgeId: ab.id,
        memoryId: null,
        source: 'CONSCIOUS',
        reason: 'user corrected',
        revertedBy: null,
      });
      expect(raw?.old).toBeCloseTo(0.5, 10);
      expect(raw?.new).toBeCloseTo(0.2, 10);
      expect(raw?.delta).toBeCloseTo(-0.3, 10);
    });

    it('skips a change marked skipIfMissing whose target is gone, and applies the rest', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const bc = g.edge('b', 'c');
      await t.store.unlinkEdges(WS, { id: bc.id });
      const changes = [
        { ...edgeChange(bc.id, delta(0.1)), skipIfMissing: true },
        { ...edgeChange(ab.id, delta(0.1)), skipIfMissing: true },
        memoryChange(g.id('a'), delta(0.1)),
      ];
      const applied = await t.store.applyWeightChanges(WS, changes, BOUNDS, T1);
      expect(applied.map((change) => change.event.id)).toEqual([changes[1]!.eventId, changes[2]!.eventId]);
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.6, 10);
      expect((await t.inspect.rawWeightEvents(WS)).map((event) => event.id).sort()).toEqual(
        [changes[1]!.eventId, changes[2]!.eventId].sort(),
      );
    });

    it('still fails whole on a missing target not marked skipIfMissing', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      await expect(
        t.store.applyWeightChanges(
          WS,
          [{ ...edgeChange(ab.id, delta(0.1)), skipIfMissing: true }, edgeChange(newId(), delta(0.1))],
          BOUNDS,
          T1,
        ),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.5, 10);
      expect(await t.inspect.rawWeightEvents(WS)).toEqual([]);
    });

    it("applies a delta to a memory's own weight", async () => {
      const g = await seed(chain);
      const change = memoryChange(g.id('a'), delta(0.25), { source: 'AGENT' });
      const [applied] = await t.store.applyWeightChanges(WS, [change], BOUNDS, T1);
      expect(applied?.memory?.id).toBe(g.id('a'));
      expect(applied?.memory?.weight).toBeCloseTo(0.75, 10);
      expect(applied?.edge).toBeNull();
      expect(applied?.event).toMatchObject({ memoryId: g.id('a'), edgeId: null, source: 'AGENT' });
      expect((await t.inspect.rawMemory(WS, g.id('a')))?.weight).toBeCloseTo(0.75, 10);
    });

    it('sets an absolute value and records the difference as the delta', async () => {
      const g = await seed(chain);
      const cd = g.edge('c', 'd');
      const [applied] = await t.store.applyWeightChanges(
        WS,
        [edgeChange(cd.id, set(0.25), { source: 'MANUAL' })],
        BOUNDS,
        T1,
      );
      expect(applied?.previousWeight).toBeCloseTo(0.7, 10);
      expect(applied?.newWeight).toBeCloseTo(0.25, 10);
      expect(applied?.event.delta).toBeCloseTo(-0.45, 10);
      expect(await weightOf(WS, cd.id)).toBeCloseTo(0.25, 10);
    });

    it('clamps at the floor and ceiling and records the change actually made', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const de = g.edge('d', 'e');
      const [down, up] = await t.store.applyWeightChanges(
        WS,
        [edgeChange(ab.id, delta(-0.9)), edgeChange(de.id, delta(0.9))],
        BOUNDS,
        T1,
      );
      expect(down?.newWeight).toBe(0);
      expect(down?.event.delta).toBeCloseTo(-0.5, 10);
      expect(up?.newWeight).toBe(1);
      expect(up?.event.delta).toBeCloseTo(0.2, 10);
      expect(await weightOf(WS, ab.id)).toBe(0);
      expect(await weightOf(WS, de.id)).toBe(1);
    });

    it('keeps a weakened edge at the floor instead of deleting it', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      await t.store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-1))], BOUNDS, T1);
      expect(await t.inspect.rawEdge(WS, ab.id)).toMatchObject({ weight: 0 });
    });

    it('clamps to the bounds it is given, not numbers of its own', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const bc = g.edge('b', 'c');
      const bounds = { floor: 0.2, ceiling: 0.65 };
      const [down, up, setHigh] = await t.store.applyWeightChanges(
        WS,
        [edgeChange(ab.id, delta(-0.9)), edgeChange(bc.id, delta(0.3)), memoryChange(g.id('a'), set(0.95))],
        bounds,
        T1,
      );
      expect(down?.newWeight).toBeCloseTo(0.2, 10);
      expect(up?.newWeight).toBeCloseTo(0.65, 10);
      expect(setHigh?.newWeight).toBeCloseTo(0.65, 10);
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.2, 10);
      expect(await weightOf(WS, bc.id)).toBeCloseTo(0.65, 10);
    });

    it('writes one event per change and answers in change order', async () => {
      const g = await seed(chain);
      const before = await t.inspect.countRows('weight_events', WS);
      const changes = [
        edgeChange(g.edge('a', 'b').id, delta(0.1)),
        memoryChange(g.id('e'), delta(-0.1)),
        edgeChange(g.edge('c', 'd').id, set(0.1)),
      ];
      const applied = await t.store.applyWeightChanges(WS, changes, BOUNDS, T1);
      expect(applied.map((change) => change.event.id)).toEqual(changes.map((change) => change.eventId));
      expect(await t.inspect.countRows('weight_events', WS)).toBe(before + 3);
    });

    it('applies two changes to one edge in one batch one after the other', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const [first, second] = await t.store.applyWeightChanges(
        WS,
        [edgeChange(ab.id, delta(0.1)), edgeChange(ab.id, delta(0.1))],
        BOUNDS,
        T1,
      );
      expect(first?.previousWeight).toBeCloseTo(0.5, 10);
      expect(first?.newWeight).toBeCloseTo(0.6, 10);
      expect(second?.previousWeight).toBeCloseTo(0.6, 10);
      expect(second?.newWeight).toBeCloseTo(0.7, 10);
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.7, 10);
    });

    it('returns an empty list for no changes', async () => {
      expect(await t.store.applyWeightChanges(WS, [], BOUNDS, T1)).toEqual([]);
    });

    it('marks the reverted event with revertedBy', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const weaken = edgeChange(ab.id, delta(-0.3));
      await t.store.applyWeightChanges(WS, [weaken], BOUNDS, T1);
      const revert = edgeChange(ab.id, set(0.5), {
        source: 'MANUAL',
        reason: 'revert',
        revertsEventId: weaken.eventId,
      });
      const [applied] = await t.store.applyWeightChanges(WS, [revert], BOUNDS, T2);
      expect(applied?.newWeight).toBeCloseTo(0.5, 10);
      expect(applied?.event.revertedBy).toBeNull();
      const [original, reverting] = await t.store.getWeightEvents(WS, [weaken.eventId, revert.eventId]);
      expect(original?.revertedBy).toBe(revert.eventId);
      expect(reverting?.revertedBy).toBeNull();
      const raw = (await t.inspect.rawWeightEvents(WS)).find((event) => event.id === weaken.eventId);
      expect(raw?.revertedBy).toBe(revert.eventId);
    });

    it('rejects reverting an event twice with CONFLICT and changes nothing', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const weaken = edgeChange(ab.id, delta(-0.3));
      await t.store.applyWeightChanges(WS, [weaken], BOUNDS, T1);
      const firstRevert = edgeChange(ab.id, set(0.5), { source: 'MANUAL', revertsEventId: weaken.eventId });
      await t.store.applyWeightChanges(WS, [firstRevert], BOUNDS, T2);
      const before = { edges: await t.inspect.rawEdges(WS), events: await t.inspect.rawWeightEvents(WS) };
      const secondRevert = edgeChange(ab.id, set(0.5), { source: 'MANUAL', revertsEventId: weaken.eventId });
      await expectCode(
        t.store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-0.1)), secondRevert], BOUNDS, T3),
        'CONFLICT',
      );
      expect(await t.inspect.rawEdges(WS)).toEqual(before.edges);
      expect(await t.inspect.rawWeightEvents(WS)).toEqual(before.events);
    });

    it('rejects reverting a missing event with CONFLICT and changes nothing', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const before = { edges: await t.inspect.rawEdges(WS), events: await t.inspect.rawWeightEvents(WS) };
      await expectCode(
        t.store.applyWeightChanges(WS, [edgeChange(ab.id, set(0.9), { revertsEventId: newId() })], BOUNDS, T1),
        'CONFLICT',
      );
      expect(await t.inspect.rawEdges(WS)).toEqual(before.edges);
      expect(await t.inspect.rawWeightEvents(WS)).toEqual(before.events);
    });

    it('cannot revert an event of another workspace', async () => {
      const there = await seed(chain, OTHER);
      const theirs = edgeChange(there.edge('a', 'b').id, delta(-0.3));
      await t.store.applyWeightChanges(OTHER, [theirs], BOUNDS, T1);
      const here = await seed(chain);
      const revert = edgeChange(here.edge('a', 'b').id, set(0.5), { revertsEventId: theirs.eventId });
      await expectCode(t.store.applyWeightChanges(WS, [revert], BOUNDS, T2), 'CONFLICT');
      expect(
        (await t.inspect.rawWeightEvents(OTHER)).find((event) => event.id === theirs.eventId)?.revertedBy,
      ).toBeNull();
      expect((await t.inspect.rawWeightEvents(WS)).map((event) => event.id)).not.toContain(revert.eventId);
    });

    it('fails with NOT_FOUND and changes nothing when one edge target is missing', async () => {
      const g = await seed(chain);
      const before = { edges: await t.inspect.rawEdges(WS), events: await t.inspect.rawWeightEvents(WS) };
      const memoryBefore = await t.inspect.rawMemory(WS, g.id('a'));
      await expectCode(
        t.store.applyWeightChanges(
          WS,
          [
            edgeChange(g.edge('a', 'b').id, delta(-0.2)),
            memoryChange(g.id('a'), delta(0.2)),
            edgeChange(newId(), delta(-0.2)),
          ],
          BOUNDS,
          T1,
        ),
        'NOT_FOUND',
      );
      expect(await t.inspect.rawEdges(WS)).toEqual(before.edges);
      expect(await t.inspect.rawWeightEvents(WS)).toEqual(before.events);
      expect(await t.inspect.rawMemory(WS, g.id('a'))).toEqual(memoryBefore);
    });

    it('fails with NOT_FOUND and changes nothing when a memory target is missing', async () => {
      const g = await seed(chain);
      const before = { edges: await t.inspect.rawEdges(WS), events: await t.inspect.rawWeightEvents(WS) };
      await expectCode(
        t.store.applyWeightChanges(
          WS,
          [edgeChange(g.edge('a', 'b').id, delta(-0.2)), memoryChange(newId(), delta(0.2))],
          BOUNDS,
          T1,
        ),
        'NOT_FOUND',
      );
      expect(await t.inspect.rawEdges(WS)).toEqual(before.edges);
      expect(await t.inspect.rawWeightEvents(WS)).toEqual(before.events);
    });

    it('cannot change a weight of another workspace', async () => {
      const g = await seed(chain, OTHER);
      const ab = g.edge('a', 'b');
      const eventsThere = await t.inspect.countRows('weight_events', OTHER);
      await expectCode(t.store.applyWeightChanges(WS, [edgeChange(ab.id, delta(-0.3))], BOUNDS, T1), 'NOT_FOUND');
      await expectCode(t.store.applyWeightChanges(WS, [memoryChange(g.id('a'), delta(-0.3))], BOUNDS, T1), 'NOT_FOUND');
      expect(await weightOf(OTHER, ab.id)).toBe(0.5);
      expect((await t.inspect.rawMemory(OTHER, g.id('a')))?.weight).toBe(POLICY.defaultMemoryWeight);
      expect(await t.inspect.countRows('weight_events', OTHER)).toBe(eventsThere);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(0);
    });

    it('loses no update under 50 concurrent deltas on one edge', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b');
      const seeded = new Set((await t.inspect.rawWeightEvents(WS)).map((event) => event.id));
      const before = seeded.size;
      const changes = Array.from({ length: 50 }, () => edgeChange(ab.id, delta(-0.005), { source: 'AGENT' }));
      const applied = await Promise.all(changes.map((change) => t.store.applyWeightChanges(WS, [change], BOUNDS, T1)));
      expect(applied).toHaveLength(50);
      expect(await weightOf(WS, ab.id)).toBeCloseTo(0.25, 9);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(before + 50);
      const listed = await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab.id, limit: 100 }));
      const events = listed.filter((event) => !seeded.has(event.id));
      expect(sortedIds(events.map((event) => event.id))).toEqual(sortedIds(changes.map((change) => change.eventId)));
      const olds = byId(events).map((event) => event.old);
      expect(new Set(olds.map((old) => old.toFixed(6))).size).toBe(50);
      // Whatever order the writers got the edge in.
      expectOneChain(events, await weightOf(WS, ab.id));
    });
  });
}
