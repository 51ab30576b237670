import { describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../../src/domain/ids.js';
import type { EdgeRecord, MemoryRecord } from '../../../src/domain/types.js';
import { createLoaders } from '../../../src/loaders/index.js';
import { reinforceCoRetrieval } from '../../../src/services/co-retrieval.js';
import { buildContext } from '../../../src/services/context-bundle.js';
import {
  contradictionPosition,
  contradictionsAfter,
  listContradictions,
} from '../../../src/services/contradictions.js';
import { rankConvergence } from '../../../src/services/convergence.js';
import { evidenceFor } from '../../../src/services/evidence.js';
import { findOscillatingEdges } from '../../../src/services/oscillation.js';
import type { ReadScope } from '../../../src/services/research-views.js';
import { currentVersion } from '../../../src/services/supersession.js';
import type { WriteScope } from '../../../src/services/writes.js';
import { strongestFirst } from '../../../src/store/key-order.js';
import type { SourceRankQuery, TypedEdgeQuery } from '../../../src/store/port.js';
import { createWorkMeter } from '../../../src/store/work-budget.js';
import {
  applyDeltas,
  contradictionMix,
  convergenceGraph,
  hypothesisEvidence,
  OSCILLATION,
  oscillatingEdge,
  STEADY,
  supersessionChain,
  WOBBLE,
} from '../../fixtures/research-graphs.js';
import { type ContractContext, OTHER, POLICY, THRESHOLD, WS } from '../contract-kit.js';

const typed = (types: string[], query: Partial<TypedEdgeQuery> = {}): TypedEdgeQuery => ({
  types,
  minWeight: null,
  pruneThreshold: THRESHOLD,
  after: null,
  limit: 100,
  ...query,
});

const ranking = (query: Partial<SourceRankQuery> = {}): SourceRankQuery => ({
  types: ['VALIDATES', 'REPLICATES', 'REPRODUCES'],
  minSources: 1,
  minWeight: null,
  pruneThreshold: THRESHOLD,
  limit: 100,
  ...query,
});

/**
 * The contract of the research-view port methods (listEdgesByType, rankTargetsBySources), and every
 * research view run over the store through the port alone, so each backend is shown to answer them
 * the same way. ("Intelligence" in older code is "research views" in the docs.)
 */
export function researchViewCases(t: ContractContext): void {
  const { seed } = t;

  /** A fresh per-request scope, as the GraphQL context would make. */
  const scope = (workspace = WS): ReadScope & WriteScope => {
    const loaders = createLoaders(t.store, workspace);
    return {
      workspace,
      store: t.store,
      loaders,
      policy: POLICY,
      limits: { walkBudget: 10_000, feedbackMaxEdges: 1_000 },
      work: createWorkMeter(100_000),
      strictTypes: false,
      findMemory: (ref: string) => loaders.memory.load(ref),
    };
  };

  describe('listEdgesByType', () => {
    it('lists the edges of one type strongest first, as stored, without pruned ones', async () => {
      const g = await seed(contradictionMix);
      const listed = await t.store.listEdgesByType(WS, typed(['CONTRADICTS']));
      const raw = (await t.inspect.rawEdges(WS)).filter(
        (edge) => edge.type === 'CONTRADICTS' && edge.weight > THRESHOLD,
      );
      expect(listed.map((edge) => edge.id)).toEqual([...raw].sort(strongestFirst).map((edge) => edge.id));
      expect(listed.map((edge) => edge.weight)).toEqual([0.95, 0.9, 0.5, 0.2]);
      expect(listed[0]).toEqual(g.edge('oldClaim', 'claimC'));
    });

    it('lists several types together', async () => {
      const g = await seed(contradictionMix);
      const listed = await t.store.listEdgesByType(WS, typed(['CONTRADICTS', 'FAILS_TO_REPRODUCE']));
      expect(listed.map((edge) => edge.weight)).toEqual([0.95, 0.9, 0.6, 0.5, 0.2]);
      expect(listed[2]?.id).toBe(g.edge('replication', 'result', 'FAILS_TO_REPRODUCE').id);
    });

    it('leaves out edges lighter than minWeight and takes the prune threshold from the query', async () => {
      await seed(contradictionMix);
      expect(
        (await t.store.listEdgesByType(WS, typed(['CONTRADICTS'], { minWeight: 0.5 }))).map((edge) => edge.weight),
      ).toEqual([0.95, 0.9, 0.5]);
      expect(
        (await t.store.listEdgesByType(WS, typed(['CONTRADICTS'], { pruneThreshold: 0.01 }))).map(
          (edge) => edge.weight,
        ),
      ).toEqual([0.95, 0.9, 0.5, 0.2, 0.04]);
    });

    it('pages by (weight, id) keyset, breaking weight ties by id across page boundaries', async () => {
      const hub = await t.store.createMemory(WS, memory('Hub'), nowIso());
      const ids = [newId(), newId(), newId(), newId(), newId()];
      const weights = [0.7, 0.7, 0.7, 0.3, 0.9];
      // Created in reverse id order, so insertion order and id order disagree.
      for (let index = ids.length - 1; index >= 0; index--) {
        const other = await t.store.createMemory(WS, memory(`Other ${index}`), nowIso());
        await t.store.linkEdge(
          WS,
          link(other.id, hub.id, 'CONTRADICTS', ids[index] as string, weights[index] as number),
          nowIso(),
        );
      }
      const pages: EdgeRecord[][] = [];
      let after: TypedEdgeQuery['after'] = null;
      for (;;) {
        const page = await t.store.listEdgesByType(WS, typed(['CONTRADICTS'], { limit: 2, after }));
        if (page.length === 0) break;
        pages.push(page);
        const last = page[page.length - 1] as EdgeRecord;
        after = { weight: last.weight, id: last.id };
      }
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      const tie = [ids[0], ids[1], ids[2]].sort() as string[];
      expect(pages.flat().map((edge) => edge.id)).toEqual([ids[4], ...tie, ids[3]]);
    });

    it('sees nothing of another workspace', async () => {
      await seed(contradictionMix, OTHER);
      expect(await t.store.listEdgesByType(WS, typed(['CONTRADICTS']))).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('rankTargetsBySources', () => {
    it('counts distinct sources per target, each by its strongest edge, best supported first', async () => {
      const g = await seed(convergenceGraph);
      const ranked = await t.store.rankTargetsBySources(WS, ranking());
      expect(ranked.map((entry) => [entry.memoryId, entry.sources])).toEqual([
        [g.id('t1'), 3],
        [g.id('t2'), 2],
        [g.id('t3'), 1],
      ]);
      expect(ranked[0]?.weight).toBeCloseTo(0.9 + 0.6 + 0.3, 9);
      expect(ranked[1]?.weight).toBeCloseTo(1.6, 9);
      expect(ranked[2]?.weight).toBeCloseTo(0.9, 9);
    });

    it('keeps targets with at least minSources and at most limit of them', async () => {
      const g = await seed(convergenceGraph);
      expect(
        (await t.store.rankTargetsBySources(WS, ranking({ minSources: 2 }))).map((entry) => entry.memoryId),
      ).toEqual([g.id('t1'), g.id('t2')]);
      expect((await t.store.rankTargetsBySources(WS, ranking({ limit: 1 }))).map((entry) => entry.memoryId)).toEqual([
        g.id('t1'),
      ]);
      expect(await t.store.rankTargetsBySources(WS, ranking({ minSources: 4 }))).toEqual([]);
    });

    it('orders equal counts by summed weight, after minWeight drops the light edges', async () => {
      const g = await seed(convergenceGraph);
      const ranked = await t.store.rankTargetsBySources(WS, ranking({ minWeight: 0.5 }));
      expect(ranked.map((entry) => [entry.memoryId, entry.sources])).toEqual([
        [g.id('t2'), 2],
        [g.id('t1'), 2],
        [g.id('t3'), 1],
      ]);
      expect(ranked[1]?.weight).toBeCloseTo(1.5, 9);
    });

    it('takes the prune threshold from the query and counts only the given types', async () => {
      const g = await seed(convergenceGraph);
      const low = await t.store.rankTargetsBySources(WS, ranking({ pruneThreshold: 0.01 }));
      expect(low.find((entry) => entry.memoryId === g.id('t3'))?.sources).toBe(2);
      const cites = await t.store.rankTargetsBySources(WS, ranking({ types: ['CITES'] }));
      expect(cites).toEqual([{ memoryId: g.id('s1'), sources: 1, weight: 0.7 }]);
    });

    it('breaks full ties by memory id', async () => {
      const source = await t.store.createMemory(WS, memory('Source'), nowIso());
      const targets = [
        await t.store.createMemory(WS, memory('T a'), nowIso()),
        await t.store.createMemory(WS, memory('T b'), nowIso()),
      ];
      for (const target of [...targets].reverse())
        await t.store.linkEdge(WS, link(source.id, target.id, 'VALIDATES', newId(), 0.5), nowIso());
      const ranked = await t.store.rankTargetsBySources(WS, ranking());
      expect(ranked.map((entry) => entry.memoryId)).toEqual(targets.map((target) => target.id).sort());
    });

    it('sees nothing of another workspace', async () => {
      await seed(convergenceGraph, OTHER);
      expect(await t.store.rankTargetsBySources(WS, ranking())).toEqual([]);
    });

    it('pages after an entry by (sources, weight, id), ties included, unmoved by writes elsewhere', async () => {
      // Eight targets: supports 3, 2, 2, 2 (two of them tied on weight), 1, 1, 1, 1; one target of
      // weight 0.1 + 0.2 + 0.3, whose float sum depends on the order it is added up in.
      const sources = await Promise.all([0, 1, 2].map((at) => t.store.createMemory(WS, memory(`S ${at}`), nowIso())));
      const plan: number[][] = [[0.1, 0.2, 0.3], [0.5, 0.5], [0.5, 0.5], [0.9, 0.1], [0.4], [0.4], [0.8], [0.2]];
      for (const [index, weights] of plan.entries()) {
        const target = await t.store.createMemory(WS, memory(`T ${index}`), nowIso());
        for (const [at, weight] of weights.entries())
          await t.store.linkEdge(
            WS,
            link((sources[at] as MemoryRecord).id, target.id, 'VALIDATES', newId(), weight),
            nowIso(),
          );
      }
      const whole = await t.store.rankTargetsBySources(WS, ranking());
      expect(whole.map((entry) => entry.sources)).toEqual([3, 2, 2, 2, 1, 1, 1, 1]);
      const walked: typeof whole = [];
      let after: SourceRankQuery['after'] = null;
      for (let page = 0; page < 10; page++) {
        const entries = await t.store.rankTargetsBySources(WS, ranking({ limit: 3, after }));
        walked.push(...entries);
        if (entries.length < 3) break;
        after = entries[entries.length - 1] as (typeof whole)[number];
        // A write between pages to a target already listed moves nothing after the cursor.
        if (page === 0)
          await t.store.linkEdge(
            WS,
            link(
              (sources[2] as MemoryRecord).id,
              (walked[0] as (typeof whole)[number]).memoryId,
              'REPLICATES',
              newId(),
              0.7,
            ),
            nowIso(),
          );
      }
      expect(walked.map((entry) => entry.memoryId)).toEqual(whole.map((entry) => entry.memoryId));
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('research views over the port', () => {
    it('evidence: 3 validating and 1 contradicting experiment give the documented score', async () => {
      const g = await seed(hypothesisEvidence);
      const evidence = await evidenceFor(scope(), g.id('h'), { minWeight: null, maxDepth: 3, limit: 100 });
      expect(evidence.supporting.map((item) => item.memory.id)).toEqual([g.id('e1'), g.id('e2'), g.id('e3')]);
      expect(evidence.contradicting.map((item) => [item.memory.id, item.weight])).toEqual([[g.id('e4'), 0.7]]);
      expect(evidence.score).toBeCloseTo((2.3 - 0.7) / (1 + 2.3 + 0.7), 9);
    });

    it('contradictions: unresolved first, then strongest, with both kinds', async () => {
      const g = await seed(contradictionMix);
      const found = await listContradictions(scope(), { limit: 20, minWeight: null, kinds: ['DIRECT', 'MIXED'] });
      expect(found.map((c) => [c.aId, c.bId, c.kind, c.resolved])).toEqual([
        [g.id('claimA'), g.id('claimB'), 'DIRECT', false],
        [g.id('replication'), g.id('result'), 'MIXED', false],
        [g.id('review'), g.id('theory'), 'MIXED', false],
        [g.id('weak'), g.id('claimB'), 'DIRECT', false],
        [g.id('oldClaim'), g.id('claimC'), 'DIRECT', true],
      ]);
    });

    it('convergence: memories with at least two independent validations', async () => {
      const g = await seed(convergenceGraph);
      const ranked = await rankConvergence(scope(), { minSupport: 2, minWeight: null, limit: 20 });
      expect(ranked.map((entry) => [entry.memoryId, entry.support])).toEqual([
        [g.id('t1'), 3],
        [g.id('t2'), 2],
      ]);
    });

    it('supersession: current follows a 3-version chain to the newest version', async () => {
      const g = await seed(supersessionChain);
      const current = await currentVersion(scope(), g.memories.v1 as MemoryRecord);
      expect(current.memory.id).toBe(g.id('v3'));
      expect(current.via.map((edge) => edge.id)).toEqual([g.edge('v2', 'v1').id, g.edge('v3', 'v2').id]);
    });

    it('context: seeds, newer versions, open contradictions and neighbors', async () => {
      const g = await seed(supersessionChain);
      const bundle = await buildContext(scope(), [g.memories.v1 as MemoryRecord], {
        budget: 10,
        types: null,
        minWeight: null,
      });
      expect(bundle.items.map((item) => [item.memory.id, item.role])).toEqual([
        [g.id('v1'), 'SEED'],
        [g.id('v3'), 'NEWER_VERSION'],
        [g.id('v2'), 'NEWER_VERSION'],
        [g.id('topic'), 'NEIGHBOR'],
        [g.id('dep'), 'NEIGHBOR'],
      ]);
    });

    it('contradictions: pages after a position equal the whole list, read from the cursor down for DIRECT', async () => {
      await seed(contradictionMix);
      // A resolved pair as strong as an open one, so the DIRECT read must come back up for it.
      const a = await t.store.createMemory(WS, memory('Old claim'), nowIso());
      const b = await t.store.createMemory(WS, memory('New claim'), nowIso());
      const c = await t.store.createMemory(WS, memory('Newest claim'), nowIso());
      await t.store.linkEdge(WS, link(a.id, b.id, 'CONTRADICTS', newId(), 0.95), nowIso());
      await t.store.linkEdge(WS, link(c.id, a.id, 'SUPERSEDES', newId(), 0.9), nowIso());
      for (const kinds of [['DIRECT'], ['MIXED'], ['DIRECT', 'MIXED']] as const) {
        const filter = { minWeight: null, kinds };
        const whole = await listContradictions(scope(), { ...filter, limit: 100 });
        const walked: typeof whole = [];
        let after: ReturnType<typeof contradictionPosition> | null = null;
        for (let page = 0; page < 10; page++) {
          const found = await contradictionsAfter(scope(), filter, after, 2);
          walked.push(...found);
          if (found.length < 2) break;
          after = contradictionPosition(found[1] as (typeof whole)[number]);
        }
        expect(
          walked.map((found) => [found.aId, found.bId]),
          kinds.join(),
        ).toEqual(whole.map((found) => [found.aId, found.bId]));
      }
      expect(
        (await listContradictions(scope(), { minWeight: null, kinds: ['DIRECT'], limit: 100 })).find(
          (found) => found.aId === a.id,
        ),
      ).toMatchObject({ aId: a.id, resolved: true, strength: 0.95 });
    });

    it('oscillatingEdges: finds the edge pulled both ways from the event log', async () => {
      const g = await seed(oscillatingEdge);
      await applyDeltas(t.store, WS, g.edge('a', 'b').id, OSCILLATION);
      await applyDeltas(t.store, WS, g.edge('b', 'c').id, WOBBLE);
      await applyDeltas(t.store, WS, g.edge('c', 'd').id, STEADY);
      const found = await findOscillatingEdges(scope(), { minFlips: 3, limit: 20, window: 1000 });
      expect(found.map((edge) => edge.id)).toEqual([g.edge('a', 'b').id]);
      const wobbly = await findOscillatingEdges(scope(), { minFlips: 1, limit: 20, window: 1000 });
      expect(wobbly.map((edge) => edge.id)).toEqual([g.edge('a', 'b').id, g.edge('b', 'c').id]);
    });

    it('reinforceCoRetrieval: strengthens only edges among the memories, one event each', async () => {
      const g = await seed(hypothesisEvidence);
      const before = await t.inspect.countRows('weight_events', WS);
      const changes = await reinforceCoRetrieval(scope(), { ids: ['hyp', 'hyp-e1', 'hyp-e4'], source: 'AGENT' });
      expect(changes.map((change) => change.edge?.id).sort()).toEqual(
        [g.edge('e1', 'h').id, g.edge('e4', 'h').id].sort(),
      );
      expect((await t.inspect.rawEdge(WS, g.edge('e1', 'h').id))?.weight).toBeCloseTo(0.9 + POLICY.tierDelta.AGENT, 12);
      expect((await t.inspect.rawEdge(WS, g.edge('e2', 'h').id))?.weight).toBe(0.8);
      expect(await t.inspect.countRows('weight_events', WS)).toBe(before + 2);
      expect(await t.inspect.countRows('edges', WS)).toBe(4);
    });
  });
}

function memory(title: string) {
  return {
    id: newId(),
    key: null,
    title,
    content: null,
    kind: null,
    tags: [],
    weight: POLICY.defaultMemoryWeight,
    metadata: null,
  };
}

function link(fromId: string, toId: string, type: string, id: string, weight: number) {
  return {
    id,
    fromId,
    toId,
    type,
    weight,
    defaultWeight: POLICY.defaultEdgeWeight,
    metadata: null,
    reason: null,
    eventId: newId(),
  };
}
