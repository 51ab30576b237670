import { describe, expect, it } from 'vitest';
import { expectError, useCountingApp } from './support.js';

const { api, calls, reset } = useCountingApp();

interface Found {
  key: string;
  superseded: boolean;
}

const create = (key: string, title: string, extra = '') =>
  api().gql(`mutation { createMemory(input: { key: "${key}", title: "${title}" ${extra} }) { id } }`);

async function search(args: string): Promise<Found[]> {
  const response = await api().gql(`{ searchMemories(${args}) { key superseded } }`);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data!.searchMemories as Found[];
}

/** Three versions of one decision (v1 <- v2 <- v3 by SUPERSEDES) and an unrelated one; v1 made first. */
async function versions() {
  await create('v1', 'Ledger on Postgres', ', kind: "decision", tags: ["ledger"]');
  await create('v2', 'Ledger on Postgres 16', ', kind: "decision", tags: ["ledger"]');
  await create('v3', 'Ledger on CockroachDB', ', kind: "decision", tags: ["ledger"]');
  await create('other', 'Ledger retention', ', kind: "fact", tags: ["ledger"]');
  for (const [from, to] of [
    ['v2', 'v1'],
    ['v3', 'v2'],
  ]) {
    const linked = await api().gql(
      `mutation { link(input: { from: "${from}", to: "${to}", type: "SUPERSEDES" }) { id } }`,
    );
    expect(linked.errors).toBeUndefined();
  }
}

describe('searchMemories ranking', () => {
  it('answers memories with every word before memories with some of them', async () => {
    await create('one-word', 'Spikes');
    await create('both-content', 'Latency', ', content: "warmup spikes"');
    await create('both-title', 'Warmup spikes in the first minute after each deploy');
    expect((await search('query: "warmup spikes"')).map((found) => found.key)).toEqual([
      'both-title',
      'both-content',
      'one-word',
    ]);
  });
});

describe('searchMemories superseded and currentOnly', () => {
  it('flags superseded memories, checked for all results in one store call', async () => {
    await versions();
    reset();
    const found = await search('query: "ledger", limit: 10');
    expect(Object.fromEntries(found.map((memory) => [memory.key, memory.superseded]))).toEqual({
      v1: true,
      v2: true,
      v3: false,
      other: false,
    });
    expect(calls().get('searchMemories')).toBe(1);
    expect(calls().get('countAdjacent')).toBe(1);
  });

  it('leaves superseded memories out with currentOnly and still fills the limit', async () => {
    await versions();
    expect((await search('query: "ledger postgres", limit: 2')).map((found) => found.key).sort()).toEqual(['v1', 'v2']);
    const current = await search('query: "ledger postgres", limit: 2, currentOnly: true');
    expect(current.map((found) => found.key).sort()).toEqual(['other', 'v3']);
    expect(current.every((found) => !found.superseded)).toBe(true);
  });
});

describe('searchMemories without words', () => {
  it('lists by kinds or tags, newest first, within the limit', async () => {
    await versions();
    expect((await search('query: "", kinds: ["decision"]')).map((found) => found.key)).toEqual(['v3', 'v2', 'v1']);
    expect((await search('query: "", tags: ["ledger"], limit: 2')).map((found) => found.key)).toEqual(['other', 'v3']);
    expect((await search('query: "", kinds: ["decision"], currentOnly: true')).map((found) => found.key)).toEqual([
      'v3',
    ]);
  });

  it('rejects an empty query without kinds or tags with BAD_USER_INPUT naming query, before any store work', async () => {
    await versions();
    reset();
    for (const args of ['query: ""', 'query: "   "', 'query: "", kinds: [], tags: []']) {
      const response = await api().gql(`{ searchMemories(${args}) { key } }`);
      expectError(response, 'BAD_USER_INPUT', 'query: must not be empty unless kinds or tags are given');
    }
    expect(calls().size).toBe(0);
  });

  it('rejects a limit outside 1..100 when listing too', async () => {
    expectError(
      await api().gql('{ searchMemories(query: "", kinds: ["fact"], limit: 101) { key } }'),
      'BAD_USER_INPUT',
      /^limit: must be between 1 and 100/,
    );
  });
});
