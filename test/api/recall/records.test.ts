import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readDb, seed, useTestApp } from '../support.js';
import { keysOf, RECALL_FIELDS, type RecallView, recallGraph, recallOf } from './support.js';

const api = useTestApp();

const recordOf = async (id: string, workspace?: string): Promise<RecallView | null> => {
  const response = await api().gql(`{ recallRecord(id: "${id}") { ${RECALL_FIELDS} } }`, undefined, { workspace });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.recallRecord as RecallView | null;
};

describe('recall records', () => {
  it('reads back the answer by its id: same results, scores and paths', async () => {
    await seed(api(), recallGraph);
    const recall = await recallOf(api(), 'query: "warmup spikes"');
    expect(recall.id).toEqual(expect.any(String));
    expect(Date.parse(recall.expiresAt as string) - Date.parse(recall.createdAt)).toBe(86_400_000);
    expect(await recordOf(recall.id as string)).toEqual(recall);
  });

  it('changes no memory, edge or weight event: only its record is written', async () => {
    await seed(api(), recallGraph);
    const before = readDb(api().dbPath);
    await recallOf(api(), 'query: "warmup spikes"');
    expect(readDb(api().dbPath)).toEqual(before);
  });

  it('is null for an unknown id and from another workspace', async () => {
    await seed(api(), recallGraph);
    const recall = await recallOf(api(), 'query: "warmup spikes"');
    expect(await recordOf('no-such-recall')).toBeNull();
    expect(await recordOf(recall.id as string, 'elsewhere')).toBeNull();
  });

  it('lists unexpired records newest first', async () => {
    await seed(api(), recallGraph);
    const first = await recallOf(api(), 'query: "warmup spikes"');
    const second = await recallOf(api(), 'seeds: ["recall-mid"], maxDepth: 1');
    const response = await api().gql('{ recalls(limit: 5) { id query } }');
    expect(response.data?.recalls).toEqual([
      { id: second.id, query: null },
      { id: first.id, query: 'warmup spikes' },
    ]);
    const other = await api().gql('{ recalls { id } }', undefined, { workspace: 'elsewhere' });
    expect(other.data?.recalls).toEqual([]);
  });

  it('leaves out a path edge and a result memory deleted since the recall', async () => {
    const graph = await seed(api(), recallGraph);
    const recall = await recallOf(api(), 'query: "warmup spikes"');
    const removed = await api().gql(
      `mutation { unlink(input: { id: "${graph.edge('mid', 'target').id}" }) { removed } deleteMemory(id: "${graph.id('distractor')}") { deleted } }`,
    );
    expect(removed.errors).toBeUndefined();
    const record = (await recordOf(recall.id as string)) as RecallView;
    expect(keysOf(record)).toEqual(keysOf(recall).filter((key) => key !== 'recall-distractor'));
    const target = record.results.find((result) => result.memory.key === 'recall-target');
    expect(target?.path.map((edge) => edge.id)).toEqual([graph.edge('hit', 'mid').id]);
  });
});

describe('recall records: storing fails', () => {
  it('answers in full with id and expiresAt null when the record cannot be written', async () => {
    await seed(api(), recallGraph);
    const stored = await recallOf(api(), 'query: "warmup spikes"');
    const db = new Database(api().dbPath);
    db.prepare(
      "CREATE TRIGGER refuse_recalls BEFORE INSERT ON recalls BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    ).run();
    db.close();
    const unstored = await recallOf(api(), 'query: "warmup spikes"');
    expect(unstored.id).toBeNull();
    expect(unstored.expiresAt).toBeNull();
    expect(unstored.results).toEqual(stored.results);
    expect((await api().gql('{ recalls { id } }')).data?.recalls).toEqual([{ id: stored.id }]);
  });
});

describe('recall records: expiry', () => {
  const shortLived = useTestApp({ env: { ENGRAM_RECALL_TTL_SECONDS: '1' } });

  it('is gone after ENGRAM_RECALL_TTL_SECONDS, from recallRecord and from recalls', async () => {
    await seed(shortLived(), recallGraph);
    const recall = await recallOf(shortLived(), 'query: "warmup spikes"');
    const read = () => shortLived().gql(`{ recallRecord(id: "${recall.id}") { id } recalls { id } }`);
    expect((await read()).data).toEqual({ recallRecord: { id: recall.id }, recalls: [{ id: recall.id }] });
    await sleep(1100);
    expect((await read()).data).toEqual({ recallRecord: null, recalls: [] });
  });
});
