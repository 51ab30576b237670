import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { type EmbeddingServer, startEmbeddingServer, TEST_DIMENSIONS } from './embedding-server.js';

const CREATE = `mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }`;
const RECALL = `query ($query: String!, $embedding: [Float!]!, $limit: Int!) {
  recall(query: $query, embedding: $embedding, limit: $limit) {
    id
    results { memory { key } vector associations { kind from { key } to { key } terms weight at } }
  }
}`;
const QUESTION = 'When will the owner of the Nimbus ETL job be back?';

/** A unit vector at `cos` to the question's (the first axis), the rest on axis `axis`. */
const at = (cos: number, axis: number) =>
  Array.from({ length: TEST_DIMENSIONS }, (_, index) =>
    index === 0 ? cos : index === axis ? Math.sqrt(1 - cos * cos) : 0,
  );
const QUESTION_VECTOR = at(1, 1);

let server: EmbeddingServer;
let api: TestApp;
beforeEach(async () => {
  server = await startEmbeddingServer();
  api = await createTestApp({
    env: {
      ENGRAM_EMBEDDINGS_URL: server.url,
      ENGRAM_EMBEDDINGS_MODEL: 'test-model',
      ENGRAM_ASSOCIATIONS: 'true',
      // "pavel" has three holders: past this ceiling, word associations cannot follow it.
      ENGRAM_ASSOCIATION_MAX_SHARED: '2',
    },
  });
});
afterEach(async () => {
  await api.close();
  await server.stop();
});

describe('recall with vectors and associations: the bridge the question vector chooses', () => {
  it("puts the later note of the best word match's subject fifth and says which name and vector put it there", async () => {
    const notes: [string, string, number][] = [
      ['owner', 'Nimbus ETL job owner: Pavel', 0.5],
      ['review', 'Nimbus ETL job review', 0.45],
      ['rota', 'Nimbus ETL job rota', 0.44],
      ['nightly', 'Nimbus ETL job runs nightly', 0.43],
      ['failed', 'Nimbus ETL job failed twice', 0.42],
      ['pressure', 'Nimbus ETL job pressure', 0.41],
      ['leave', 'Nimbus calendar: Pavel on leave until October', 0.4],
      // Nearer to the question, but another project's: no name of the question.
      ['elsewhere', 'Lumen: Pavel away till May', 0.6],
    ];
    for (const [index, [key, title, cos]] of notes.entries()) {
      const created = await api.gql(CREATE, { input: { key, title, embedding: at(cos, index + 2) } });
      expect(created.errors).toBeUndefined();
    }
    const answer = await api.gql(RECALL, { query: QUESTION, embedding: QUESTION_VECTOR, limit: 6 });
    expect(answer.errors).toBeUndefined();
    const results = answer.data?.recall.results as {
      memory: { key: string };
      vector: number;
      associations: { kind: string; from: { key: string }; to: { key: string }; terms: string[]; weight: number }[];
    }[];
    expect(results).toHaveLength(6);
    const fifth = results[4];
    expect(fifth?.memory.key).toBe('leave');
    // Cosine 0.4 is similarity 1 - (1 - 0.4) / 2 = 0.7.
    expect(fifth?.vector).toBeCloseTo(0.7, 5);
    expect(fifth?.associations).toEqual([
      {
        kind: 'QUESTION_VECTOR',
        from: { key: 'owner' },
        to: { key: 'leave' },
        terms: ['pavel'],
        weight: expect.closeTo(0.7, 5),
        at: 0,
      },
    ]);
    expect(results.filter((result) => result.associations.length > 0)).toHaveLength(1);

    // The record keeps it: recallRecord answers the same, and USED on the bridged memory is accepted.
    const recallId = answer.data?.recall.id as string;
    const stored = await api.gql(
      `query ($id: ID!) { recallRecord(id: $id) { results { memory { key } associations { kind from { key } } } } }`,
      { id: recallId },
    );
    expect(stored.data?.recallRecord.results[4]).toEqual({
      memory: { key: 'leave' },
      associations: [{ kind: 'QUESTION_VECTOR', from: { key: 'owner' } }],
    });
    const leaveId = (await api.gql(`{ memory(key: "leave") { id } }`)).data?.memory.id as string;
    const used = await api.gql(
      `mutation ($r: ID!, $m: ID!) { feedback(recallId: $r, memoryId: $m, signal: USED) { newWeight } }`,
      { r: recallId, m: leaveId },
    );
    expect(used.errors).toBeUndefined();
  });

  it('shows word associations as kind TERMS', async () => {
    const create = async (title: string) =>
      expect((await api.gql(CREATE, { input: { title } })).errors).toBeUndefined();
    await create('Rosa: my team lead Cyrus is great');
    // Written while the endpoint is down, so it has no vector and is no vector match: only the association reaches it.
    await server.stop();
    await create('Cyrus got a place in Bologna');
    await server.start();
    const answer = await api.gql(RECALL, { query: 'team lead', embedding: QUESTION_VECTOR, limit: 5 });
    expect(answer.errors).toBeUndefined();
    const kinds = ((answer.data?.recall.results ?? []) as { associations: { kind: string }[] }[]).flatMap((result) =>
      result.associations.map((association) => association.kind),
    );
    expect(kinds).toEqual(['TERMS']);
  });
});
