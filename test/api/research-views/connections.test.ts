import { describe, expect, it } from 'vitest';
import { contradictionMix, convergenceGraph, hypothesisEvidence } from '../../fixtures/research-graphs.js';
import { expectCode, useResearchApp } from './support.js';

const { api, seed, ok, callsOf } = useResearchApp();

const CONTRADICTIONS = `query($first: Int, $after: String, $minWeight: Float, $kinds: [ContradictionKind!]) {
  contradictionsConnection(first: $first, after: $after, minWeight: $minWeight, kinds: $kinds) {
    edges { cursor node { a { key } b { key } kind strength resolved } } pageInfo { hasNextPage endCursor }
  }
}`;
const CONTRADICTIONS_LIST = `query($kinds: [ContradictionKind!]) {
  contradictions(limit: 100, kinds: $kinds) { a { key } b { key } kind strength resolved }
}`;
const CONVERGENCE = `query($first: Int, $after: String, $minSupport: Int, $minWeight: Float) {
  convergenceConnection(first: $first, after: $after, minSupport: $minSupport, minWeight: $minWeight) {
    edges { cursor node { memory { key } support weight } } pageInfo { hasNextPage endCursor }
  }
}`;
const CONVERGENCE_LIST = `query($minSupport: Int) {
  convergence(limit: 100, minSupport: $minSupport) { memory { key } support weight }
}`;
const SUPPORTING = `query($id: ID!, $first: Int, $after: String, $maxDepth: Int) {
  memory(id: $id) { evidence(maxDepth: $maxDepth, limit: 1) {
    supporting { memory { key } }
    supportingConnection(first: $first, after: $after) {
      edges { node { memory { key } weight } } pageInfo { hasNextPage endCursor }
    }
  } }
}`;
const CONTRADICTING = `query($id: ID!, $first: Int, $after: String) {
  memory(id: $id) { evidence {
    contradictingConnection(first: $first, after: $after) { edges { node { memory { key } } } pageInfo { endCursor } }
  } }
}`;
const SUPPORTING_LIST = `query($id: ID!) { memory(id: $id) { evidence(limit: 100) { supporting { memory { key } weight } } } }`;

interface Connection {
  edges: { node: Record<string, any> }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Every node of a connection, page by page, running `between` after each page but the last. */
async function walk(
  query: string,
  connectionOf: (data: Record<string, any>) => Connection,
  variables: Record<string, unknown>,
  between?: (page: number) => Promise<void>,
): Promise<Record<string, any>[]> {
  const seen: Record<string, any>[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const connection = connectionOf(await ok(query, { ...variables, after }));
    seen.push(...connection.edges.map((edge) => edge.node));
    if (!connection.pageInfo.hasNextPage) return seen;
    after = connection.pageInfo.endCursor;
    await between?.(page);
  }
  throw new Error('the connection did not end');
}

/**
 * The API's promise: an item present and unchanged (same `signature`) before and after the writes
 * is walked exactly once, and nothing is walked twice.
 */
function expectNeitherSkippedNorRepeated(
  before: Record<string, any>[],
  after: Record<string, any>[],
  walked: Record<string, any>[],
  identity: (item: Record<string, any>) => string,
  signature: (item: Record<string, any>) => string = (item) => JSON.stringify(item),
): void {
  const walkedIds = walked.map(identity);
  expect(new Set(walkedIds).size, walkedIds.join(' ')).toBe(walkedIds.length);
  const afterSignatures = new Set(after.map(signature));
  const unchanged = before.filter((item) => afterSignatures.has(signature(item))).map(identity);
  expect(unchanged.length).toBeGreaterThan(1);
  for (const id of unchanged) expect(walkedIds, id).toContain(id);
}

const pair = (found: Record<string, any>) => `${found.a.key}>${found.b.key}`;
const contradictionsOf = (data: Record<string, any>) => data.contradictionsConnection as Connection;
const convergenceOf = (data: Record<string, any>) => data.convergenceConnection as Connection;
const supportingOf = (data: Record<string, any>) => data.memory.evidence.supportingConnection as Connection;

describe('Query.contradictionsConnection', () => {
  it('walks the list of contradictions in its order, for every choice of kinds', async () => {
    await seed(contradictionMix);
    for (const kinds of [null, ['DIRECT'], ['MIXED']]) {
      const { contradictions } = await ok(CONTRADICTIONS_LIST, { kinds });
      for (const first of [1, 2, 100]) {
        const walked = await walk(CONTRADICTIONS, contradictionsOf, { first, kinds });
        expect(walked, `${kinds} by ${first}`).toEqual(contradictions);
      }
    }
  });

  it('neither skips nor repeats a contradiction that existed unchanged across writes between pages', async () => {
    await seed(contradictionMix);
    for (const kinds of [null, ['DIRECT']]) {
      const before = (await ok(CONTRADICTIONS_LIST, { kinds })).contradictions;
      const round = kinds === null ? 'all' : 'direct';
      const walked = await walk(CONTRADICTIONS, contradictionsOf, { first: 2, kinds }, async (page) => {
        // New pairs above and below the cursor, a pair resolved, and an edge of a pair weakened.
        await ok(`mutation {
          x: createMemory(input: { key: "${round}-x${page}", title: "x" }) { id }
          y: createMemory(input: { key: "${round}-y${page}", title: "y" }) { id }
          strong: link(input: { from: "${round}-x${page}", to: "${round}-y${page}", type: "CONTRADICTS", weight: 0.99 }) { id }
          weak: link(input: { from: "${round}-y${page}", to: "${round}-x${page}", type: "CONTRADICTS", weight: 0.3 }) { id }
        }`);
        if (page === 0) {
          await ok(`mutation { n: createMemory(input: { key: "${round}-newer", title: "n" }) { id }
            link(input: { from: "${round}-newer", to: "mix-weak", type: "SUPERSEDES" }) { id } }`);
          await ok(
            'mutation { weaken(from: "mix-review", to: "mix-theory", type: "CONTRADICTS", amount: 0.1) { newWeight } }',
          );
        }
      });
      const after = (await ok(CONTRADICTIONS_LIST, { kinds })).contradictions;
      expectNeitherSkippedNorRepeated(before, after, walked, pair);
    }
  });
});

describe('Query.contradictionsConnection store reads', () => {
  // Seeding 311 memories one write at a time takes a while on Neo4j: a longer timeout.
  it('reads DIRECT pages from their cursor down, and pages with MIXED from the strongest edge', async () => {
    // 310 open DIRECT pairs, each of its own strength; a read is 200 contradicting edges.
    const memories = [
      { name: 'hub', key: 'hub', title: 'Hub' },
      ...Array.from({ length: 310 }, (_, index) => ({ name: `m${index}`, key: `m${index}`, title: `M ${index}` })),
    ];
    const edges = Array.from({ length: 310 }, (_, index) => ({
      from: `m${index}`,
      to: 'hub',
      type: 'CONTRADICTS',
      weight: Math.round((0.95 - index * 0.002) * 1e4) / 1e4,
    }));
    await seed({ name: 'many', memories, edges });
    const firstPageCursor = async (kinds: string[] | null) =>
      (await ok(CONTRADICTIONS, { first: 100, kinds })).contradictionsConnection.pageInfo.endCursor;
    // After 100 pairs, a DIRECT page reads the 200 edges from its cursor, and is full.
    const direct = await firstPageCursor(['DIRECT']);
    expect((await callsOf(CONTRADICTIONS, { first: 100, after: direct, kinds: ['DIRECT'] })).listEdgesByType).toBe(1);
    // A page that also looks for MIXED pairs reads from the strongest edge: the 100 above the cursor again.
    const all = await firstPageCursor(null);
    expect((await callsOf(CONTRADICTIONS, { first: 100, after: all })).listEdgesByType).toBe(2);
  }, 120_000);
});

describe('Query.convergenceConnection', () => {
  it('walks the ranking in its order', async () => {
    await seed(convergenceGraph);
    const { convergence } = await ok(CONVERGENCE_LIST, { minSupport: 1 });
    expect(convergence).toHaveLength(3);
    for (const first of [1, 2, 3])
      expect(await walk(CONVERGENCE, convergenceOf, { first, minSupport: 1 })).toEqual(convergence);
  });

  it('neither skips nor repeats an entry that existed unchanged across writes between pages', async () => {
    await seed(convergenceGraph);
    for (let index = 0; index < 4; index++)
      await ok(`mutation { createMemory(input: { key: "conv-x${index}", title: "x" }) { id } }`);
    const before = (await ok(CONVERGENCE_LIST, { minSupport: 1 })).convergence;
    const walked = await walk(CONVERGENCE, convergenceOf, { first: 1, minSupport: 1 }, async (page) => {
      // A new target ranked first, one ranked last, and a listed target gaining a source.
      if (page === 0)
        await ok(`mutation {
          a: link(input: { from: "conv-x0", to: "conv-x1", type: "VALIDATES", weight: 0.9 }) { id }
          b: link(input: { from: "conv-x2", to: "conv-x1", type: "VALIDATES", weight: 0.9 }) { id }
          c: link(input: { from: "conv-x3", to: "conv-x1", type: "VALIDATES", weight: 0.9 }) { id }
          d: link(input: { from: "conv-s4", to: "conv-x1", type: "VALIDATES", weight: 0.9 }) { id }
          e: link(input: { from: "conv-x0", to: "conv-x2", type: "VALIDATES", weight: 0.1 }) { id }
          f: link(input: { from: "conv-s4", to: "conv-t1", type: "VALIDATES", weight: 0.9 }) { id }
        }`);
    });
    const after = (await ok(CONVERGENCE_LIST, { minSupport: 1 })).convergence;
    expectNeitherSkippedNorRepeated(before, after, walked, (entry) => entry.memory.key);
    expect(walked.map((entry) => entry.memory.key)).toContain('conv-x2');
  });
});

describe('Evidence.supportingConnection and contradictingConnection', () => {
  it('walks every supporting item in order, uncut by the evidence limit', async () => {
    await seed(hypothesisEvidence);
    const { memory } = await ok(SUPPORTING_LIST, { id: 'hyp' });
    const walked = await walk(SUPPORTING, supportingOf, { id: 'hyp', first: 2 });
    expect(walked).toEqual(memory.evidence.supporting);
    expect(walked.map((item) => item.memory.key)).toEqual(['hyp-e1', 'hyp-e2', 'hyp-e3']);
    const contradicting = await ok(CONTRADICTING, { id: 'hyp', first: 5 });
    expect(contradicting.memory.evidence.contradictingConnection.edges).toEqual([
      { node: { memory: { key: 'hyp-e4' } } },
    ]);
  });

  it('neither skips nor repeats an item that existed unchanged across writes between pages', async () => {
    await seed(hypothesisEvidence);
    const before = (await ok(SUPPORTING_LIST, { id: 'hyp' })).memory.evidence.supporting;
    const walked = await walk(SUPPORTING, supportingOf, { id: 'hyp', first: 1 }, async (page) => {
      await ok(`mutation {
        a: createMemory(input: { key: "hyp-new${page}", title: "New experiment" }) { id }
        strong: link(input: { from: "hyp-new${page}", to: "hyp", type: "VALIDATES", weight: 0.95 }) { id }
      }`);
      if (page === 0)
        await ok('mutation { weaken(from: "hyp-e2", to: "hyp", type: "VALIDATES", amount: 0.3) { newWeight } }');
    });
    const after = (await ok(SUPPORTING_LIST, { id: 'hyp' })).memory.evidence.supporting;
    expectNeitherSkippedNorRepeated(before, after, walked, (item) => item.memory.key);
  });
});

describe('research-view connections refuse', () => {
  it('first outside 1..100', async () => {
    await seed(hypothesisEvidence);
    for (const first of [0, 101]) {
      expectCode(await api().gql(CONTRADICTIONS, { first }), 'BAD_USER_INPUT', /first: must be between 1 and 100/);
      expectCode(await api().gql(CONVERGENCE, { first }), 'BAD_USER_INPUT', /first: must be between 1 and 100/);
      const evidence = await api().gql(SUPPORTING, { id: 'hyp', first });
      expect(evidence.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(evidence.errors?.[0]?.message).toMatch(/first: must be between 1 and 100/);
    }
  });

  it('a cursor of other filters, another memory, another field or another workspace', async () => {
    await seed(contradictionMix);
    await seed(convergenceGraph);
    await seed(hypothesisEvidence);
    await seed(hypothesisEvidence, 'other');
    const refused = async (query: string, variables: Record<string, unknown>, workspace?: string) => {
      const response = await api().gql(query, variables, workspace ? { workspace } : {});
      expect(response.errors?.[0]?.extensions?.code, JSON.stringify(response)).toBe('BAD_USER_INPUT');
      expect(response.errors?.[0]?.message).toMatch(/^after: /);
    };
    const contradictions = contradictionsOf(await ok(CONTRADICTIONS, { first: 1 })).pageInfo.endCursor;
    await refused(CONTRADICTIONS, { first: 1, after: contradictions, kinds: ['MIXED'] });
    await refused(CONTRADICTIONS, { first: 1, after: contradictions, minWeight: 0.3 });
    await refused(CONVERGENCE, { first: 1, after: contradictions });
    await refused(CONTRADICTIONS, { first: 1, after: contradictions }, 'other');
    // Omitted kinds and all kinds are one list, so they share cursors.
    await ok(CONTRADICTIONS, { first: 1, after: contradictions, kinds: ['MIXED', 'DIRECT'] });

    const convergence = convergenceOf(await ok(CONVERGENCE, { first: 1, minSupport: 1 })).pageInfo.endCursor;
    await refused(CONVERGENCE, { first: 1, after: convergence, minSupport: 2 });
    await refused(CONVERGENCE, { first: 1, after: convergence, minSupport: 1, minWeight: 0.5 });

    const evidence = supportingOf(await ok(SUPPORTING, { id: 'hyp', first: 1 })).pageInfo.endCursor;
    await ok(SUPPORTING, { id: 'hyp', first: 1, after: evidence });
    await refused(SUPPORTING, { id: 'hyp-e1', first: 1, after: evidence });
    await refused(SUPPORTING, { id: 'hyp', first: 1, after: evidence, maxDepth: 2 });
    await refused(CONTRADICTING, { id: 'hyp', first: 1, after: evidence });
    await refused(SUPPORTING, { id: 'hyp', first: 1, after: evidence }, 'other');
  });
});
