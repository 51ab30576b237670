import { describe, expect, it } from 'vitest';
import { chain } from '../../fixtures/graphs.js';
import { createTestApp } from '../../helpers/app.js';
import { expectError, seed } from '../support.js';
import { usePathApp } from './support.js';

const { api, path } = usePathApp();

describe('path', () => {
  describe('the not-found message names the memories as a person knows them', () => {
    /** Creates unlinked memories (no edges, so no path between any two) and returns their ids. */
    const create = async (...inputs: { key?: string; title: string }[]) => {
      const ids: string[] = [];
      for (const input of inputs) {
        const created = await api().gql(
          'mutation ($input: CreateMemoryInput!) { createMemory(input: $input) { id } }',
          {
            input,
          },
        );
        expect(created.errors).toBeUndefined();
        ids.push(created.data?.createMemory.id);
      }
      return ids;
    };
    const messageBetween = async (from: string, to: string, maxHops = 4) =>
      (await path(`from: "${from}", to: "${to}", maxHops: ${maxHops}`)).message;

    it('by key, whichever of id or key the question used', async () => {
      const [first, second] = await create(
        { key: 'kafka-choice', title: 'We use Kafka' },
        { key: 'ops-load', title: 'Ops load' },
      );
      const expected = 'No path from kafka-choice to ops-load within 4 hops';
      expect(await messageBetween(first as string, second as string)).toBe(expected);
      expect(await messageBetween('kafka-choice', second as string)).toBe(expected);
    });

    it('by title in quotes when a memory has no key, and says "1 hop" for maxHops 1', async () => {
      const [keyless, other] = await create(
        { title: ' Cache  warm-up notes ' },
        { key: 'ops-load', title: 'Ops load' },
      );
      expect(await messageBetween(keyless as string, 'ops-load')).toBe(
        'No path from "Cache warm-up notes" to ops-load within 4 hops',
      );
      expect(await messageBetween('ops-load', keyless as string, 1)).toBe(
        'No path from ops-load to "Cache warm-up notes" within 1 hop',
      );
      expect(await messageBetween(other as string, keyless as string, 2)).toMatch(/ within 2 hops$/);
    });

    it('shortens a long title, and adds the ids when two memories read the same', async () => {
      const long = `A${'very '.repeat(20)}long title`;
      const [longOne, twinA, twinB] = await create(
        { title: long },
        { title: 'Meeting notes' },
        { title: 'Meeting notes' },
      );
      const shortened = (await messageBetween(longOne as string, twinA as string)) as string;
      expect(shortened).toBe(`No path from "${long.slice(0, 59)}…" to "Meeting notes" within 4 hops`);
      expect(await messageBetween(twinA as string, twinB as string)).toBe(
        `No path from "Meeting notes" (${twinA}) to "Meeting notes" (${twinB}) within 4 hops`,
      );
    });
  });

  it('says so in the message when the walk budget ran out before a path was found', async () => {
    const tight = await createTestApp({ env: { ENGRAM_WALK_BUDGET: '2' } });
    try {
      await seed(tight, chain);
      const { data } = await tight.gql('{ path(from: "chain-a", to: "chain-e") { found message } }');
      expect(data?.path).toEqual({
        found: false,
        message: 'No path from chain-a to chain-e within 4 hops (the search stopped after examining 2 edges)',
      });
    } finally {
      await tight.close();
    }
  });

  it('fails with NOT_FOUND naming from or to when a memory is missing', async () => {
    await seed(api(), chain);
    expectError(
      await api().gql('{ path(from: "ghost", to: "chain-a") { found } }'),
      'NOT_FOUND',
      'from: no memory "ghost" in this workspace',
    );
    expectError(
      await api().gql('{ path(from: "chain-a", to: "ghost") { found } }'),
      'NOT_FOUND',
      'to: no memory "ghost" in this workspace',
    );
  });

  it('rejects maxHops outside 1..10 with BAD_USER_INPUT naming maxHops', async () => {
    await seed(api(), chain);
    for (const maxHops of [0, 11, -1]) {
      expectError(
        await api().gql(`{ path(from: "chain-a", to: "chain-b", maxHops: ${maxHops}) { found } }`),
        'BAD_USER_INPUT',
        'maxHops: must be between 1 and 10',
      );
    }
  });
});
