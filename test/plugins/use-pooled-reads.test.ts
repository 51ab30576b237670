import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { usePooledReads } from '../../src/plugins/use-pooled-reads.js';
import { currentRequestReads, type RequestReads } from '../../src/store/request-reads.js';

/** Resolvers that note the RequestReads they run in, and a slot that notes when it is ended. */
function app(plugins = [usePooledReads()]) {
  const seen: (RequestReads | undefined)[] = [];
  const ended: string[] = [];
  const note = (name: string) => {
    const reads = currentRequestReads();
    seen.push(reads);
    reads?.set({}, name, async () => {
      ended.push(name);
    });
    return true;
  };
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { a: Boolean, b: Boolean, fails: Boolean }',
      resolvers: {
        Query: {
          a: async () => note('a'),
          b: async () => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            return note('b');
          },
          fails: () => {
            note('fails');
            throw new Error('boom');
          },
        },
      },
    }),
    logging: false,
    plugins,
  });
  const ask = (query: string) =>
    yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
  return { ask, seen, ended };
}

describe('usePooledReads', () => {
  it('runs every resolver of an operation in one RequestReads, even after a timer', async () => {
    const { ask, seen } = app();
    await (await ask('{ a b }')).text();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeDefined();
    expect(seen[1]).toBe(seen[0]);
  });

  it('gives each operation its own, and ends what was kept in it once execution is over', async () => {
    const { ask, seen, ended } = app();
    await (await ask('{ a }')).text();
    await (await ask('{ a }')).text();
    expect(seen[0]).not.toBe(seen[1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual(['a', 'a']);
  });

  it('ends them when a resolver throws too', async () => {
    const { ask, ended } = app();
    await (await ask('{ fails }')).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual(['fails']);
  });

  it('leaves resolvers outside any RequestReads without the plugin', async () => {
    const { ask, seen } = app([]);
    await (await ask('{ a }')).text();
    expect(seen).toEqual([undefined]);
  });
});
