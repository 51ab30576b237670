import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampWeight, DEFAULT_WEIGHT_POLICY, isPruned, roundWeight } from '../../src/domain/weights.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

const policy = DEFAULT_WEIGHT_POLICY;
const anyNumber = fc.double({ noNaN: true, min: -10, max: 10 });

describe('weight rules (properties)', () => {
  it('clamps into [floor, ceiling], keeps values already inside, and is idempotent', () => {
    fc.assert(
      fc.property(anyNumber, (w) => {
        const clamped = clampWeight(w, policy);
        expect(clamped).toBeGreaterThanOrEqual(policy.floor);
        expect(clamped).toBeLessThanOrEqual(policy.ceiling);
        expect(clampWeight(clamped, policy)).toBe(clamped);
        // === rather than toBe: -0 clamps to 0, the same weight.
        if (w >= policy.floor && w <= policy.ceiling) expect(clamped === w).toBe(true);
      }),
    );
  });

  it('rounds to 12 decimals: idempotent, within 5e-13, and free of float noise', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1, max: 2 }), (w) => {
        const rounded = roundWeight(w);
        expect(roundWeight(rounded)).toBe(rounded);
        expect(Math.abs(rounded - w)).toBeLessThanOrEqual(5e-13 + Number.EPSILON);
      }),
    );
    expect(roundWeight(0.5 - 0.3)).toBe(0.2);
  });

  it('prunes exactly at or below the threshold, for any policy', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, min: 0, max: 1 }),
        fc.double({ noNaN: true, min: 0, max: 1 }),
        (weight, threshold) => {
          expect(isPruned(weight, { ...policy, pruneThreshold: threshold })).toBe(weight <= threshold);
        },
      ),
    );
  });
});

type Op =
  | { kind: 'create'; m: number }
  | { kind: 'delete'; m: number }
  | { kind: 'link'; from: number; to: number; t: number; weight: number | null }
  | { kind: 'unlink'; from: number; to: number; t: number }
  | { kind: 'nudge'; from: number; to: number; t: number; sign: 1 | -1; amount: number }
  | { kind: 'set'; from: number; to: number; t: number; weight: number };

const TYPES = ['CAUSED_BY', 'CITES'];
const slot = fc.integer({ min: 0, max: 4 });
const amount = fc.constantFrom(0.00001, 0.01, 0.1, 0.3, 0.45, 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), m: slot }),
  fc.record({ kind: fc.constant('delete' as const), m: slot }),
  fc.record({
    kind: fc.constant('link' as const),
    from: slot,
    to: slot,
    t: fc.integer({ min: 0, max: 1 }),
    weight: fc.option(fc.constantFrom(0, 0.05, 0.2, 0.5, 1), { nil: null }),
  }),
  fc.record({ kind: fc.constant('unlink' as const), from: slot, to: slot, t: fc.integer({ min: 0, max: 1 }) }),
  fc.record({
    kind: fc.constant('nudge' as const),
    from: slot,
    to: slot,
    t: fc.integer({ min: 0, max: 1 }),
    sign: fc.constantFrom(1 as const, -1 as const),
    amount,
  }),
  fc.record({
    kind: fc.constant('set' as const),
    from: slot,
    to: slot,
    t: fc.integer({ min: 0, max: 1 }),
    weight: fc.constantFrom(0, 0.04, 0.05, 0.06, 0.7, 1),
  }),
);

/** The reference model: memories by slot, edges by "from>to>type" with their weight and event count. */
interface Model {
  memories: Set<number>;
  edges: Map<string, { weight: number; events: number; id?: string }>;
}

const key = (from: number, to: number, t: number) => `m${from}>m${to}>${TYPES[t]}`;
const nudged = (weight: number, delta: number) => roundWeight(clampWeight(roundWeight(weight + delta), policy));

describe('random operation sequences against a reference model (properties)', () => {
  let t: HardenedApp;
  let run = 0;
  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' }, logLevel: 'silent' });
  });
  afterAll(() => t.close());

  it('agrees with the model on every outcome and on the final state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), async (ops) => {
        const ws = `prop-${run++}`;
        const gql = (query: string, variables: Record<string, unknown> = {}) =>
          t.gql(query, variables, { 'x-engram-workspace': ws });
        const model: Model = { memories: new Set(), edges: new Map() };
        for (const step of ops) {
          if (step.kind === 'create') {
            const r = await gql(
              `mutation ($id: ID!, $title: String!) { createMemory(input: { id: $id, title: $title }) { id } }`,
              { id: `m${step.m}`, title: `m${step.m}` },
            );
            if (model.memories.has(step.m)) expect(codes(r)).toEqual(['CONFLICT']);
            else expect(r.errors).toBeUndefined();
            model.memories.add(step.m);
          } else if (step.kind === 'delete') {
            const r = await gql(`mutation ($id: ID!) { deleteMemory(id: $id) { edgesRemoved } }`, { id: `m${step.m}` });
            if (!model.memories.has(step.m)) {
              expect(codes(r)).toEqual(['NOT_FOUND']);
              continue;
            }
            const touching = [...model.edges.keys()].filter(
              (k) => k.startsWith(`m${step.m}>`) || k.split('>')[1] === `m${step.m}`,
            );
            expect(r.data?.deleteMemory.edgesRemoved).toBe(touching.length);
            model.memories.delete(step.m);
            for (const k of touching) model.edges.delete(k);
          } else {
            const k = key(step.from, step.to, step.t);
            const ends = model.memories.has(step.from) && model.memories.has(step.to);
            const edge = model.edges.get(k);
            const vars = { f: `m${step.from}`, t: `m${step.to}`, y: TYPES[step.t] };
            if (step.kind === 'link') {
              const r = await gql(
                `mutation ($f: ID!, $t: ID!, $y: String!, $w: Float) { link(input: { from: $f, to: $t, type: $y, weight: $w }) { id weight } }`,
                { ...vars, w: step.weight },
              );
              if (!ends) expect(codes(r)).toEqual(['NOT_FOUND']);
              else if (step.from === step.to) expect(codes(r)).toEqual(['BAD_USER_INPUT']);
              else if (!edge) {
                model.edges.set(k, { weight: step.weight ?? policy.defaultEdgeWeight, events: 0, id: r.data?.link.id });
                expect(r.data?.link.weight).toBe(step.weight ?? policy.defaultEdgeWeight);
              } else {
                if (step.weight !== null && step.weight !== edge.weight) {
                  edge.weight = step.weight;
                  edge.events++;
                }
                expect(r.data?.link).toEqual({ id: edge.id, weight: edge.weight });
              }
            } else if (step.kind === 'unlink') {
              const r = await gql(
                `mutation ($f: ID!, $t: ID!, $y: String!) { unlink(input: { from: $f, to: $t, type: $y }) { removed } }`,
                vars,
              );
              if (!ends) expect(codes(r)).toEqual(['NOT_FOUND']);
              else {
                expect(r.data?.unlink.removed).toBe(edge ? 1 : 0);
                model.edges.delete(k);
              }
            } else if (step.kind === 'nudge') {
              const field = step.sign < 0 ? 'weaken' : 'strengthen';
              const r = await gql(
                `mutation ($f: ID!, $t: ID!, $y: String!, $a: Float) { ${field}(from: $f, to: $t, type: $y, amount: $a) { previousWeight newWeight pruned } }`,
                { ...vars, a: step.amount },
              );
              if (!ends || !edge) expect(codes(r)).toEqual(['NOT_FOUND']);
              else {
                const next = nudged(edge.weight, step.sign * step.amount);
                expect(r.data?.[field]).toEqual({
                  previousWeight: edge.weight,
                  newWeight: next,
                  pruned: isPruned(next, policy),
                });
                edge.weight = next;
                edge.events++;
              }
            } else {
              const r = await gql(
                `mutation ($id: ID!, $w: Float!) { setEdgeWeight(id: $id, weight: $w) { newWeight pruned } }`,
                { id: edge?.id ?? 'no-such-edge', w: step.weight },
              );
              if (!edge) expect(codes(r)).toEqual(['NOT_FOUND']);
              else {
                expect(r.data?.setEdgeWeight).toEqual({
                  newWeight: step.weight,
                  pruned: isPruned(step.weight, policy),
                });
                edge.weight = step.weight;
                edge.events++;
              }
            }
          }
        }
        // Final state, read back: the same memories, edges, weights and event counts as the model.
        const slots = [0, 1, 2, 3, 4];
        const r = await gql(
          `query ($ids: [ID!]!) { memories(ids: $ids) { id neighbors(direction: OUTGOING, includePruned: true, limit: 100) { memory { id } edge { id type weight pruned history(limit: 100) { id } } } } }`,
          {
            ids: slots.map((s) => `m${s}`),
          },
        );
        expect(r.errors).toBeUndefined();
        const stored = new Map<string, { weight: number; events: number; id?: string }>();
        for (const memory of r.data?.memories ?? []) {
          if (!memory) continue;
          for (const n of memory.neighbors) {
            stored.set(`${memory.id}>${n.memory.id}>${n.edge.type}`, {
              weight: n.edge.weight,
              events: n.edge.history.length,
              id: n.edge.id,
            });
            expect(n.edge.pruned).toBe(isPruned(n.edge.weight, policy));
          }
        }
        expect((r.data?.memories ?? []).map((m: { id: string } | null) => m?.id ?? null)).toEqual(
          slots.map((s) => (model.memories.has(s) ? `m${s}` : null)),
        );
        expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(model.edges));
      }),
      { numRuns: 40, seed: 424242 },
    );
  });
});
