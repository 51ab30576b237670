import { describe, expect, it } from 'vitest';
import { expectError, useTestApp } from '../support.js';

const on = useTestApp({ env: { ENGRAM_ASSOCIATIONS: 'true' } });

const CREATE = `mutation($title: String!) { createMemory(input: { title: $title }) { id } }`;
const RECALL = `query($query: String!) {
  recall(query: $query) {
    id
    results { memory { title } seed path { id } associations { from { title } to { title } terms weight at } }
  }
}`;

describe('recall through associations (ENGRAM_ASSOCIATIONS=true)', () => {
  it('reaches a memory that shares only a name with the match, and shows the association that carried it', async () => {
    const ids: string[] = [];
    for (const title of ['Rosa: my team lead Cyrus is great', 'Cyrus got a place in Bologna', 'Lunch was fine']) {
      ids.push((await on().gql(CREATE, { title })).data?.createMemory.id);
    }
    const answer = await on().gql(RECALL, { query: 'team lead' });
    expect(answer.errors).toBeUndefined();
    const [intro, news, ...rest] = answer.data?.recall.results ?? [];
    expect(rest).toEqual([]);
    expect(intro).toMatchObject({
      memory: { title: 'Rosa: my team lead Cyrus is great' },
      seed: true,
      associations: [],
    });
    expect(news).toMatchObject({
      memory: { title: 'Cyrus got a place in Bologna' },
      seed: false,
      path: [],
      associations: [
        {
          from: { title: 'Rosa: my team lead Cyrus is great' },
          to: { title: 'Cyrus got a place in Bologna' },
          terms: ['cyrus'],
          at: 0,
        },
      ],
    });

    // No edge brought it: NOT_RELEVANT has nothing to weaken.
    const recallId = answer.data?.recall.id as string;
    expectError(
      await on().gql(
        `mutation($r: ID!, $m: ID!) { feedback(recallId: $r, memoryId: $m, signal: NOT_RELEVANT) { newWeight } }`,
        { r: recallId, m: ids[1] },
      ),
      'BAD_USER_INPUT',
      /association/,
    );
  });

  it('leaves association terms out of what export lists', async () => {
    await on().gql(CREATE, { title: 'Cyrus got a place in Bologna' });
    const listed = await on().store.listMemories('default', { afterId: null, limit: 10 });
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('terms');
  });
});
