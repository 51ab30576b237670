import { describe, expect, it } from 'vitest';
import { createRng, randomInt } from '../../../bench/lib/rng.js';
import { newId } from '../../../src/domain/ids.js';
import type { WeightEventRecord } from '../../../src/domain/types.js';
import { chain } from '../../fixtures/graphs.js';
import type { ContractContext } from '../contract-kit.js';
import {
  BOUNDS,
  delta,
  edgeChange,
  eventFilter,
  expectCode,
  expectOneChain,
  memoryChange,
  OTHER,
  set,
  T1,
  T2,
  T3,
  T4,
  WS,
} from '../contract-kit.js';

/** The GraphStore contract, weight history: events listed, per edge, by id, and the event a new link's reason writes. */
export function weightHistoryCases(t: ContractContext): void {
  const { seed, createMemory, link } = t;

  describe('listWeightEvents', () => {
    /** ab and bc of the chain and memory a each get changes at T1..T4, so newest-first order is known. */
    async function history() {
      const g = await seed(chain);
      // Whether creating an edge writes an event is not part of the contract; leave such events out.
      const seeded = new Set((await t.inspect.rawWeightEvents(WS)).map((event) => event.id));
      const fresh = (events: readonly WeightEventRecord[]) => events.filter((event) => !seeded.has(event.id));
      const ab = g.edge('a', 'b').id;
      const bc = g.edge('b', 'c').id;
      const a = g.id('a');
      const e1 = edgeChange(ab, delta(-0.1), { source: 'CONSCIOUS', reason: 'first' });
      const e2 = edgeChange(bc, delta(0.1), { source: 'AGENT' });
      const e3 = memoryChange(a, delta(0.2), { source: 'CONSCIOUS' });
      const e4 = edgeChange(ab, set(0.9), { source: 'MANUAL', reason: 'fourth' });
      await t.store.applyWeightChanges(WS, [e1], BOUNDS, T1);
      await t.store.applyWeightChanges(WS, [e2], BOUNDS, T2);
      await t.store.applyWeightChanges(WS, [e3], BOUNDS, T3);
      await t.store.applyWeightChanges(WS, [e4], BOUNDS, T4);
      return { g, ab, bc, a, fresh, ids: [e1.eventId, e2.eventId, e3.eventId, e4.eventId] as const };
    }

    it('lists the events of a workspace newest first', async () => {
      const { ids } = await history();
      const events = await t.store.listWeightEvents(WS, eventFilter());
      const ours = events.filter((event) => ids.includes(event.id));
      expect(ours.map((event) => event.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
      const times = events.map((event) => event.at);
      expect(times).toEqual([...times].sort().reverse());
    });

    it('keeps the events of one edge', async () => {
      const { ab, ids, fresh } = await history();
      const events = await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab }));
      expect(fresh(events).map((event) => event.id)).toEqual([ids[3], ids[0]]);
      expect(events.every((event) => event.edgeId === ab && event.memoryId === null)).toBe(true);
    });

    it("keeps the events of one memory's own weight", async () => {
      const { a, ids } = await history();
      const events = await t.store.listWeightEvents(WS, eventFilter({ memoryId: a }));
      expect(events.map((event) => event.id)).toEqual([ids[2]]);
      expect(events[0]).toMatchObject({ memoryId: a, edgeId: null });
    });

    it('keeps the events of one source', async () => {
      const { ids } = await history();
      const manual = await t.store.listWeightEvents(WS, eventFilter({ source: 'MANUAL' }));
      expect(manual.map((event) => event.id)).toContain(ids[3]);
      expect(manual.every((event) => event.source === 'MANUAL')).toBe(true);
      const agent = await t.store.listWeightEvents(WS, eventFilter({ source: 'AGENT' }));
      expect(agent.map((event) => event.id)).toEqual([ids[1]]);
    });

    it('combines filters', async () => {
      const { ab, ids } = await history();
      const events = await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab, source: 'CONSCIOUS' }));
      expect(events.map((event) => event.id)).toEqual([ids[0]]);
      expect(await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab, source: 'AGENT' }))).toEqual([]);
    });

    it('returns at most limit events, the newest', async () => {
      const { ab, ids } = await history();
      const events = await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab, limit: 1 }));
      expect(events.map((event) => event.id)).toEqual([ids[3]]);
      expect(await t.store.listWeightEvents(WS, eventFilter({ limit: 2 }))).toHaveLength(2);
    });

    it('lists nothing of another workspace', async () => {
      const { ab } = await history();
      expect(await t.store.listWeightEvents(OTHER, eventFilter())).toEqual([]);
      expect(await t.store.listWeightEvents(OTHER, eventFilter({ edgeId: ab }))).toEqual([]);
    });
  });

  describe('listWeightEvents pages (after)', () => {
    /**
     * Events at T1, six at T2 (one batch: equal timestamps) and one at T3. The batch's ids are
     * written out of id order, so insertion order cannot pass for the order the port promises;
     * each target's own ids still rise in the order they apply, as a writer's ids do (a change
     * whose id sorts before its target's newest event is stamped a millisecond later).
     */
    async function ties() {
      const g = await seed(chain);
      const seeded = new Set((await t.inspect.rawWeightEvents(WS)).map((event) => event.id));
      const ab = g.edge('a', 'b').id;
      const bc = g.edge('b', 'c').id;
      const a = g.id('a');
      const ids = Array.from({ length: 6 }, () => newId());
      const shuffled = [ids[0], ids[2], ids[1], ids[3], ids[4], ids[5]] as string[];
      const targets = [ab, bc, a, ab, bc, ab];
      const batch = targets.map((id, index) =>
        (id === a ? memoryChange : edgeChange)(id, delta(0.01), { eventId: shuffled[index] as string }),
      );
      await t.store.applyWeightChanges(WS, [edgeChange(ab, delta(0.01))], BOUNDS, T1);
      await t.store.applyWeightChanges(WS, batch, BOUNDS, T2);
      await t.store.applyWeightChanges(WS, [edgeChange(bc, delta(0.01))], BOUNDS, T3);
      const fresh = (events: readonly WeightEventRecord[]) => events.filter((event) => !seeded.has(event.id));
      return { ab, a, fresh };
    }

    /** Every page of `limit` events, each read after the last event of the page before. */
    async function walk(filter: Parameters<typeof eventFilter>[0], limit: number) {
      const seen: WeightEventRecord[] = [];
      for (let page = 0; page < 50; page++) {
        const last = seen.at(-1);
        const events = await t.store.listWeightEvents(
          WS,
          eventFilter({ ...filter, limit, after: last ? { at: last.at, id: last.id } : null }),
        );
        seen.push(...events);
        if (events.length < limit) return seen;
      }
      throw new Error('the pages did not end');
    }

    const newestFirst = (events: readonly WeightEventRecord[]) =>
      [...events].sort((x, y) => (x.at === y.at ? (x.id < y.id ? 1 : -1) : x.at < y.at ? 1 : -1));

    it('orders events of one instant by id descending, whatever order they were written in', async () => {
      const { fresh } = await ties();
      const events = fresh(await t.store.listWeightEvents(WS, eventFilter()));
      expect(events).toHaveLength(8);
      expect(events.map((event) => event.id)).toEqual(newestFirst(events).map((event) => event.id));
    });

    it('continues strictly after the given event, through equal timestamps, without skipping or repeating', async () => {
      const { ab, a, fresh } = await ties();
      for (const filter of [{}, { edgeId: ab }, { memoryId: a }, { source: 'CONSCIOUS' as const }]) {
        const whole = await t.store.listWeightEvents(WS, eventFilter(filter));
        for (const limit of [1, 2, 3]) {
          const paged = await walk(filter, limit);
          expect(paged.map((event) => event.id)).toEqual(whole.map((event) => event.id));
        }
        expect(fresh(whole).length).toBeGreaterThan(0);
      }
      const onAb = fresh(await walk({ edgeId: ab }, 2));
      expect(onAb).toHaveLength(4);
      expect(onAb.every((event) => event.edgeId === ab)).toBe(true);
    });

    it('starts after a position between events of one instant, and after the oldest gives nothing', async () => {
      const { ab, fresh } = await ties();
      const whole = fresh(await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab })));
      const tied = whole.filter((event) => event.at === T2);
      expect(tied).toHaveLength(3);
      const middle = tied[1] as WeightEventRecord;
      const after = await t.store.listWeightEvents(
        WS,
        eventFilter({ edgeId: ab, after: { at: middle.at, id: middle.id } }),
      );
      expect(after.map((event) => event.id)).toEqual(whole.slice(whole.indexOf(middle) + 1).map((event) => event.id));
      const oldest = whole.at(-1) as WeightEventRecord;
      const afterOldest = await t.store.listWeightEvents(
        WS,
        eventFilter({ edgeId: ab, after: { at: oldest.at, id: oldest.id } }),
      );
      expect(fresh(afterOldest)).toEqual([]);
    });

    it('gives each edge its history in the same order as listWeightEvents', async () => {
      const { ab } = await ties();
      const [history] = await t.store.getEdgeHistories(WS, [ab], 50);
      expect(history).toEqual(await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab })));
      const [newest] = await t.store.getEdgeHistories(WS, [ab], 2);
      expect(newest).toEqual(history?.slice(0, 2));
    });
  });

  describe('getEdgeHistories', () => {
    it('returns the newest events of each edge, newest first, in key order', async () => {
      const g = await seed(chain);
      const seeded = new Set((await t.inspect.rawWeightEvents(WS)).map((event) => event.id));
      const ab = g.edge('a', 'b').id;
      const bc = g.edge('b', 'c').id;
      const changes = [
        edgeChange(ab, delta(0.01)),
        edgeChange(bc, delta(0.01)),
        edgeChange(ab, delta(0.01)),
        edgeChange(ab, delta(0.01)),
      ];
      const times = [T1, T2, T3, T4];
      for (const [index, change] of changes.entries()) {
        await t.store.applyWeightChanges(WS, [change], BOUNDS, times[index]!);
      }
      const histories = await t.store.getEdgeHistories(WS, [bc, newId(), ab], 2);
      expect(histories).toHaveLength(3);
      expect(histories.every((events) => events.length <= 2)).toBe(true);
      expect(
        histories.map((events) => events.filter((event) => !seeded.has(event.id)).map((event) => event.id)),
      ).toEqual([[changes[1]!.eventId], [], [changes[3]!.eventId, changes[2]!.eventId]]);
    });

    it('returns nothing for an edge of another workspace', async () => {
      const g = await seed(chain, OTHER);
      const ab = g.edge('a', 'b').id;
      await t.store.applyWeightChanges(OTHER, [edgeChange(ab, delta(0.1))], BOUNDS, T1);
      expect(await t.store.getEdgeHistories(WS, [ab], 10)).toEqual([[]]);
    });
  });

  describe('event time', () => {
    /**
     * A writer stamps its change before it waits for the target, so changes can reach a target
     * out of stamp order (two requests, a retried transaction, two processes on one file). The
     * target's history must still end with the change applied last, or an audit or an undo reads
     * the wrong one.
     */
    async function appliedOutOfOrder(kind: 'edge' | 'memory', first: string, second: string) {
      const g = await seed(chain);
      const target = kind === 'edge' ? g.edge('a', 'b').id : g.id('a');
      const change = kind === 'edge' ? edgeChange : memoryChange;
      const earlierId = newId();
      const laterId = newId();
      await t.store.applyWeightChanges(WS, [change(target, delta(0.1), { eventId: laterId })], BOUNDS, first);
      const [applied] = await t.store.applyWeightChanges(
        WS,
        [change(target, delta(-0.3), { eventId: earlierId })],
        BOUNDS,
        second,
      );
      const filter = kind === 'edge' ? { edgeId: target } : { memoryId: target };
      const [newest] = await t.store.listWeightEvents(WS, eventFilter(filter));
      const weight = kind === 'edge' ? await t.weightOf(WS, target) : (await t.inspect.rawMemory(WS, target))?.weight;
      return { applied, newest, weight, earlierId };
    }

    it('stamps a change that reaches an edge after a later-stamped one a millisecond after it', async () => {
      const { applied, newest, weight, earlierId } = await appliedOutOfOrder('edge', '2099-12-31T23:59:59.999Z', T1);
      expect(newest?.id).toBe(earlierId);
      expect(newest?.at).toBe('2100-01-01T00:00:00.000Z');
      expect(newest?.new).toBeCloseTo(weight as number, 10);
      expect(applied?.event).toEqual(newest);
      expect(applied?.edge?.updatedAt).toBe(newest?.at);
    });

    it("does the same for a memory's own weight", async () => {
      const { applied, newest, weight, earlierId } = await appliedOutOfOrder('memory', T3, T2);
      expect(newest?.id).toBe(earlierId);
      expect(newest?.at).toBe('2099-01-01T00:00:03.001Z');
      expect(newest?.new).toBeCloseTo(weight as number, 10);
      expect(applied?.memory?.updatedAt).toBe(newest?.at);
    });

    it('keeps the instant of the newest event when the id already sorts after it', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b').id;
      const first = edgeChange(ab, delta(0.1));
      const second = edgeChange(ab, delta(0.1));
      await t.store.applyWeightChanges(WS, [first], BOUNDS, T3);
      const [applied] = await t.store.applyWeightChanges(WS, [second], BOUNDS, T2);
      expect(applied?.event.at).toBe(T3);
      const events = await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab, limit: 2 }));
      expect(events.map((event) => event.id)).toEqual([second.eventId, first.eventId]);
    });

    it('keeps one chain ending at the weight, whatever times and ids the changes arrive with', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b').id;
      const seeded = new Set((await t.inspect.rawWeightEvents(WS)).map((event) => event.id));
      // A fixed shuffle of ids and times, so a failure replays: ids out of creation order, times
      // going back and forth and repeating.
      const ids = Array.from({ length: 20 }, () => newId());
      const times = [T1, T2, T3, T4];
      const rng = createRng(7);
      const next = (n: number) => randomInt(rng, n);
      for (let i = ids.length - 1; i > 0; i--) {
        const j = next(i + 1);
        [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
      }
      for (const [index, eventId] of ids.entries()) {
        const operation = index % 3 === 0 ? set(0.2 + index / 100) : delta(0.01);
        await t.store.applyWeightChanges(
          WS,
          [edgeChange(ab, operation, { eventId })],
          BOUNDS,
          times[next(4)] as string,
        );
      }
      const history = (await t.store.listWeightEvents(WS, eventFilter({ edgeId: ab, limit: 50 }))).filter(
        (event) => !seeded.has(event.id),
      );
      expect(history.map((event) => event.id)).toEqual([...ids].reverse());
      expectOneChain(history, await t.weightOf(WS, ab));
    });

    it('keeps the time it is given when that is later than the newest event', async () => {
      const g = await seed(chain);
      const ab = g.edge('a', 'b').id;
      await t.store.applyWeightChanges(WS, [edgeChange(ab, delta(0.1))], BOUNDS, T1);
      const [applied] = await t.store.applyWeightChanges(WS, [edgeChange(ab, delta(0.1))], BOUNDS, T2);
      expect(applied?.event.at).toBe(T2);
    });
  });

  describe('getWeightEvents', () => {
    it('returns events by id in order with null for missing ids', async () => {
      const g = await seed(chain);
      const first = edgeChange(g.edge('a', 'b').id, delta(-0.2), { source: 'AGENT', reason: 'noise' });
      const second = memoryChange(g.id('c'), set(0.8), { source: 'MANUAL' });
      await t.store.applyWeightChanges(WS, [first, second], BOUNDS, T2);
      const events = await t.store.getWeightEvents(WS, [second.eventId, newId(), first.eventId]);
      expect(events[1]).toBeNull();
      expect(events[0]).toMatchObject({
        id: second.eventId,
        at: T2,
        source: 'MANUAL',
        memoryId: g.id('c'),
        edgeId: null,
        reason: null,
        revertedBy: null,
      });
      expect(events[0]!.new).toBeCloseTo(0.8, 10);
      expect(events[2]).toMatchObject({
        id: first.eventId,
        at: T2,
        source: 'AGENT',
        edgeId: g.edge('a', 'b').id,
        memoryId: null,
        reason: 'noise',
        revertedBy: null,
      });
      expect(events[2]!.old).toBeCloseTo(0.5, 10);
      expect(events[2]!.new).toBeCloseTo(0.3, 10);
      expect(events[2]!.delta).toBeCloseTo(-0.2, 10);
    });

    it('answers null for an event of another workspace', async () => {
      const g = await seed(chain, OTHER);
      const change = edgeChange(g.edge('a', 'b').id, delta(0.1));
      await t.store.applyWeightChanges(OTHER, [change], BOUNDS, T1);
      expect(await t.store.getWeightEvents(WS, [change.eventId])).toEqual([null]);
    });
  });

  describe("linkEdge: a new edge's reason", () => {
    it('is kept as a MANUAL event that leaves the weight alone, stored with the edge and read back by id, edge and list', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const eventId = newId();
      const reason = `b quotes a: "it's $ws" }) //`;
      const { edge, created } = await link(a.id, b.id, 'CITES', { weight: 0.7, reason, eventId }, WS, T1);
      expect(created).toBe(true);
      expect(edge.weight).toBe(0.7);
      expect(await t.inspect.rawEdge(WS, edge.id)).toMatchObject({ id: edge.id, weight: 0.7 });
      expect(await t.inspect.rawWeightEvents(WS)).toEqual([
        {
          id: eventId,
          edgeId: edge.id,
          memoryId: null,
          source: 'MANUAL',
          old: 0.7,
          new: 0.7,
          delta: 0,
          reason,
          revertedBy: null,
        },
      ]);
      const expected = {
        id: eventId,
        at: T1,
        source: 'MANUAL',
        edgeId: edge.id,
        memoryId: null,
        old: 0.7,
        new: 0.7,
        delta: 0,
        reason,
        revertedBy: null,
      };
      expect(await t.store.getWeightEvents(WS, [eventId])).toEqual([expected]);
      expect(await t.store.getEdgeHistories(WS, [edge.id], 10)).toEqual([[expected]]);
      expect(await t.store.listWeightEvents(WS, eventFilter({ edgeId: edge.id }))).toEqual([expected]);
    });

    it('writes no event for a new edge without a reason', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const { edge, created } = await link(a.id, b.id, 'CITES', { weight: 0.7, reason: null }, WS, T1);
      expect(created).toBe(true);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(0);
      expect(await t.store.getEdgeHistories(WS, [edge.id], 10)).toEqual([[]]);
    });

    it('writes no event when an existing edge is confirmed with a reason and no new weight', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const first = await link(a.id, b.id, 'CITES', { weight: 0.7 }, WS, T1);
      const again = await link(a.id, b.id, 'CITES', { reason: 'seen again' }, WS, T2);
      expect({ created: again.created, id: again.edge.id, weight: again.edge.weight }).toEqual({
        created: false,
        id: first.edge.id,
        weight: 0.7,
      });
      expect(await t.inspect.countRows('weight_events', WS)).toBe(0);
    });

    it('leaves no edge behind when its event cannot be written', async () => {
      const a = await createMemory();
      const b = await createMemory();
      const c = await createMemory();
      const taken = newId();
      await link(a.id, b.id, 'CITES', { reason: 'first', eventId: taken }, WS, T1);
      // The event id is taken, so the event write fails; the edge written before it must go too.
      await expectCode(link(a.id, c.id, 'CITES', { reason: 'second', eventId: taken }, WS, T2), 'CONFLICT');
      expect(await t.inspect.countRows('edges', WS)).toBe(1);
      expect(await t.store.findEdge(WS, a.id, c.id, 'CITES')).toBeNull();
      expect(await t.inspect.rawWeightEvents(WS)).toEqual([expect.objectContaining({ id: taken, reason: 'first' })]);
    });
  });
}
