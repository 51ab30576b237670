import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { expectError, readDb, seed } from '../support.js';
import { useWeightApp } from '../weights/support.js';
import { recallGraph, recallOf } from './support.js';

const { api, edgeWeight, memoryWeight } = useWeightApp();

const FEEDBACK = `mutation($recallId: ID, $memoryId: ID!, $signal: FeedbackSignal!, $reason: String, $via: [ID!]) {
  feedback(recallId: $recallId, memoryId: $memoryId, signal: $signal, reason: $reason, via: $via) {
    previousWeight newWeight edge { id } memory { key } event { source reason }
  }
}`;

/** The recall every test gives feedback on, and the graph behind it. */
async function recalled() {
  const graph = await seed(api(), recallGraph);
  const recall = await recallOf(api(), 'query: "warmup spikes"');
  return { graph, recallId: recall.id as string };
}

const edgesOf = (changes: { edge: { id: string } | null }[]) =>
  changes.flatMap((change) => (change.edge ? [change.edge.id] : [])).sort();

describe('feedback by recallId', () => {
  it("USED strengthens the memory and exactly its recorded path's edges, and learns one association, CONSCIOUS, naming the recall", async () => {
    const { graph, recallId } = await recalled();
    const before = readDb(api().dbPath);
    const response = await api().gql(FEEDBACK, {
      recallId,
      memoryId: 'recall-target',
      signal: 'USED',
      reason: 'fixed it',
    });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const changes = response.data?.feedback as {
      edge: { id: string } | null;
      memory: { key: string } | null;
      event: { source: string; reason: string };
    }[];
    const after = readDb(api().dbPath);
    // The recall's one word match, the hit, is now associated with the memory used.
    const learned = (
      after.rows.edges as { id: string; from_id: string; to_id: string; type: string; weight: number }[]
    ).filter((row) => row.type === 'RECALLED_WITH');
    expect(learned.map((row) => [row.from_id, row.to_id, row.weight])).toEqual([
      [graph.id('hit'), graph.id('target'), 0.5],
    ]);
    expect(edgesOf(changes)).toEqual(
      [graph.edge('hit', 'mid').id, graph.edge('mid', 'target').id, learned[0]?.id as string].sort(),
    );
    expect(changes.filter((change) => change.memory?.key === 'recall-target')).toHaveLength(1);
    expect(new Set(changes.map((change) => change.event.source))).toEqual(new Set(['CONSCIOUS']));
    expect(new Set(changes.map((change) => change.event.reason))).toEqual(new Set([`recall ${recallId}: fixed it`]));
    expect(await edgeWeight(graph.edge('hit', 'mid').id)).toBeCloseTo(0.91, 12);
    expect(await edgeWeight(graph.edge('mid', 'target').id)).toBeCloseTo(0.81, 12);
    expect(await memoryWeight('recall-target')).toBeCloseTo(0.51, 12);
    expect(after.counts.weight_events - before.counts.weight_events).toBe(4);
    // Every other edge kept its weight.
    const untouched = (rows: unknown[]) =>
      (rows as { id: string; weight: number; type: string }[])
        .filter((row) => row.id !== graph.edge('hit', 'mid').id && row.id !== graph.edge('mid', 'target').id)
        .filter((row) => row.type !== 'RECALLED_WITH')
        .map((row) => [row.id, row.weight]);
    expect(untouched(after.rows.edges)).toEqual(untouched(before.rows.edges));
  });

  it("NOT_RELEVANT weakens the path's edges only; NOT_USEFUL the memory only", async () => {
    const { graph, recallId } = await recalled();
    const weakened = await api().gql(FEEDBACK, { recallId, memoryId: 'recall-joined', signal: 'NOT_RELEVANT' });
    expect(edgesOf(weakened.data?.feedback)).toEqual(
      [graph.edge('hit', 'left').id, graph.edge('left', 'joined').id].sort(),
    );
    expect(weakened.data?.feedback.every((change: { memory: unknown }) => change.memory === null)).toBe(true);
    expect(weakened.data?.feedback[0].event.reason).toBe(`recall ${recallId}`);
    expect(await edgeWeight(graph.edge('right', 'joined').id)).toBe(0.5);
    expect(await edgeWeight(graph.edge('left', 'joined').id)).toBeCloseTo(0.49, 12);
    const useless = await api().gql(FEEDBACK, { recallId, memoryId: 'recall-joined', signal: 'NOT_USEFUL' });
    expect(useless.data?.feedback).toHaveLength(1);
    expect(useless.data?.feedback[0]).toMatchObject({ edge: null, memory: { key: 'recall-joined' } });
    expect(await memoryWeight('recall-joined')).toBeCloseTo(0.49, 12);
  });

  it('USED on a seed strengthens only the memory; NOT_RELEVANT on a seed is refused (no path), naming NOT_USEFUL', async () => {
    const { recallId } = await recalled();
    const used = await api().gql(FEEDBACK, { recallId, memoryId: 'recall-hit', signal: 'USED' });
    expect(used.data?.feedback).toHaveLength(1);
    expect(used.data?.feedback[0].memory).toEqual({ key: 'recall-hit' });
    expectError(
      await api().gql(FEEDBACK, { recallId, memoryId: 'recall-hit', signal: 'NOT_RELEVANT' }),
      'BAD_USER_INPUT',
      /NOT_USEFUL/,
    );
  });

  it('steps by the tier of the source given (MANUAL: 0.1)', async () => {
    const { graph, recallId } = await recalled();
    const response = await api().gql(
      `mutation { feedback(recallId: "${recallId}", memoryId: "recall-mid", signal: USED, source: MANUAL) { event { source delta } } }`,
    );
    // The memory and its one-edge path step by 0.1; the new association starts at its weight.
    expect(response.data?.feedback).toEqual([
      { event: { source: 'MANUAL', delta: 0.1 } },
      { event: { source: 'MANUAL', delta: 0.1 } },
      { event: { source: 'MANUAL', delta: 0.5 } },
    ]);
    expect(await edgeWeight(graph.edge('hit', 'mid').id)).toBe(1);
  });

  it('skips a path edge removed since the recall, changing the rest', async () => {
    const { graph, recallId } = await recalled();
    await api().gql(`mutation { unlink(input: { id: "${graph.edge('mid', 'target').id}" }) { removed } }`);
    const response = await api().gql(FEEDBACK, { recallId, memoryId: 'recall-target', signal: 'NOT_RELEVANT' });
    expect(edgesOf(response.data?.feedback)).toEqual([graph.edge('hit', 'mid').id]);
  });

  it('files the question: a later question worded like it finds the memory, and the result shows the cue', async () => {
    const { recallId } = await recalled();
    const CUED = `query($query: String!) {
      recall(query: $query, maxDepth: 1) {
        results { memory { key } seed cue { match names terms edge { id type from { key } } } }
      }
    }`;
    type Cued = { memory: { key: string }; seed: boolean; cue: Record<string, unknown> | null };
    const targetFor = async (query: string) => {
      const response = await api().gql(CUED, { query });
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      const recall = response.data?.recall as { results: Cued[] } | undefined;
      return recall?.results.find((result) => result.memory.key === 'recall-target');
    };
    // "warmup spikes at noon": two of its three words are the recall's; depth 1 cannot reach target.
    expect(await targetFor('warmup spikes at noon')).toBeUndefined();
    await api().gql(FEEDBACK, { recallId, memoryId: 'recall-target', signal: 'USED' });
    const learned = (readDb(api().dbPath).rows.edges as { id: string; type: string }[]).find(
      (row) => row.type === 'RECALLED_WITH',
    );
    expect(await targetFor('warmup spikes at noon')).toEqual({
      memory: { key: 'recall-target' },
      seed: true,
      cue: {
        match: 2 / 3,
        names: [],
        terms: ['spikes', 'warmup'],
        edge: { id: learned?.id, type: 'RECALLED_WITH', from: { key: 'recall-hit' } },
      },
    });
    // One word of three: no cue.
    expect((await targetFor('warmup noon lunch'))?.cue ?? null).toBeNull();
  });

  it('writes nothing when one change of the batch fails: one transaction', async () => {
    const { graph, recallId } = await recalled();
    const failing = graph.edge('mid', 'target').id;
    const db = new Database(api().dbPath);
    db.prepare(
      `CREATE TRIGGER refuse_one BEFORE UPDATE OF weight ON edges WHEN new.id = '${failing}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    ).run();
    db.close();
    const before = readDb(api().dbPath);
    const response = await api().gql(FEEDBACK, { recallId, memoryId: 'recall-target', signal: 'USED' });
    expect(response.errors).toHaveLength(1);
    expect(readDb(api().dbPath)).toEqual(before);
    // The question's cue, filed before the weights, was taken back with the new association.
    const check = new Database(api().dbPath, { readonly: true });
    expect(check.prepare('SELECT count(*) AS n FROM recall_cues').get()).toEqual({ n: 0 });
    check.close();
  });

  it.each([
    ['an unknown recall', { recallId: 'nope', memoryId: 'recall-hit', signal: 'USED' }, 'NOT_FOUND', /recallId/],
    [
      'a memory not among the results',
      { memoryId: 'recall-stranger', signal: 'USED' },
      'BAD_USER_INPUT',
      /not among the results/,
    ],
    ['via with recallId', { memoryId: 'recall-mid', signal: 'USED', via: ['x'] }, 'BAD_USER_INPUT', /via or recallId/],
  ])('refuses %s and writes nothing', async (_label, variables, code, message) => {
    const { recallId } = await recalled();
    await api().gql('mutation { createMemory(input: { key: "recall-stranger", title: "Unrelated" }) { id } }');
    const before = readDb(api().dbPath);
    expectError(await api().gql(FEEDBACK, { recallId, ...variables }), code, message);
    expect(readDb(api().dbPath)).toEqual(before);
  });

  it('is NOT_FOUND from another workspace', async () => {
    const { recallId } = await recalled();
    const response = await api().gql(
      FEEDBACK,
      { recallId, memoryId: 'recall-hit', signal: 'USED' },
      { workspace: 'elsewhere' },
    );
    expectError(response, 'NOT_FOUND');
  });
});

describe('reinforceCoRetrieval by recallId', () => {
  it("strengthens the edges among the recall's results by the AGENT step, naming the recall", async () => {
    const { graph, recallId } = await recalled();
    const response = await api().gql(
      `mutation { reinforceCoRetrieval(recallId: "${recallId}") { edge { id } event { source reason } } }`,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(edgesOf(response.data?.reinforceCoRetrieval)).toEqual(graph.edgeList.map((edge) => edge.id).sort());
    expect(response.data?.reinforceCoRetrieval[0].event).toEqual({ source: 'AGENT', reason: `recall ${recallId}` });
  });

  it('needs exactly one of ids and recallId', async () => {
    const { recallId } = await recalled();
    expectError(await api().gql('mutation { reinforceCoRetrieval { edge { id } } }'), 'BAD_USER_INPUT', /recallId/);
    expectError(
      await api().gql(`mutation { reinforceCoRetrieval(ids: ["a", "b"], recallId: "${recallId}") { edge { id } } }`),
      'BAD_USER_INPUT',
      /recallId/,
    );
  });
});
