import { describe, expect, it } from 'vitest';
import { chain, cycle, diamond, disconnected, star } from '../fixtures/graphs.js';
import type { SeededGraph } from '../fixtures/graphs.js';
import { createTestApp } from '../helpers/app.js';
import { newId, nowIso } from '../../src/domain/ids.js';
import type { NewMemory } from '../../src/domain/types.js';
import { DEFAULT_WS, byId, expectError, seed, useTestApp } from './support.js';

const api = useTestApp();

interface PathAnswer {
  found: boolean;
  hops: number;
  message: string | null;
  steps: { memory: { key: string }; edgeToNext: { id: string } | null }[];
}

const PATH_FIELDS = 'found hops message steps { memory { key } edgeToNext { id } }';

async function path(args: string): Promise<PathAnswer> {
  const response = await api().gql(`{ path(${args}) { ${PATH_FIELDS} } }`);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.path as PathAnswer;
}

const stepKeys = (answer: PathAnswer) => answer.steps.map((step) => step.memory.key);

/** Appends chain-f after chain-e, so chain-a to chain-f takes 5 hops. */
async function extendChain(): Promise<void> {
  await api().gql(`mutation {
    createMemory(input: { key: "chain-f", title: "Chain F" }) { id }
    link(input: { from: "chain-e", to: "chain-f", type: "CAUSED_BY" }) { id }
  }`);
}

describe('path', () => {
  it('finds the path with its hops, steps in order, and no edge after the last step', async () => {
    const graph = await seed(api(), chain);
    const answer = await path('from: "chain-a", to: "chain-e"');
    expect(answer.found).toBe(true);
    expect(answer.hops).toBe(4);
    expect(answer.message).toBeNull();
    expect(stepKeys(answer)).toEqual(['chain-a', 'chain-b', 'chain-c', 'chain-d', 'chain-e']);
    expect(answer.steps.map((step) => step.edgeToNext?.id ?? null)).toEqual([
      graph.edge('a', 'b').id,
      graph.edge('b', 'c').id,
      graph.edge('c', 'd').id,
      graph.edge('d', 'e').id,
      null,
    ]);
  });

  it('answers hops 0 and one step when from and to are the same memory', async () => {
    const graph = await seed(api(), chain);
    const answer = await path(`from: "${graph.id('c')}", to: "chain-c"`);
    expect(answer).toEqual({
      found: true,
      hops: 0,
      message: null,
      steps: [{ memory: { key: 'chain-c' }, edgeToNext: null }],
    });
  });

  it('answers not found with the contract message and no steps when no path is short enough', async () => {
    await seed(api(), chain);
    expect(await path('from: "chain-a", to: "chain-e", maxHops: 3')).toEqual({
      found: false,
      hops: 0,
      message: 'No path from chain-a to chain-e within 3 hops',
      steps: [],
    });
    expect((await path('from: "chain-a", to: "chain-e", maxHops: 4')).found).toBe(true);
  });

  it('looks at most 4 hops deep by default, and up to 10 when asked', async () => {
    await seed(api(), chain);
    await extendChain();
    const byDefault = await path('from: "chain-a", to: "chain-f"');
    expect(byDefault.found).toBe(false);
    expect(byDefault.message).toBe('No path from chain-a to chain-f within 4 hops');
    const deeper = await path('from: "chain-a", to: "chain-f", maxHops: 10');
    expect(deeper.hops).toBe(5);
  });

  it('answers not found between two components', async () => {
    await seed(api(), disconnected);
    const answer = await path('from: "disconnected-p", to: "disconnected-y", maxHops: 10');
    expect(answer.found).toBe(false);
    expect(answer.message).toBe('No path from disconnected-p to disconnected-y within 10 hops');
    expect((await path('from: "disconnected-z", to: "disconnected-p"')).found).toBe(false);
  });

  it('follows edges in the given direction only, and ignores direction with BOTH', async () => {
    await seed(api(), chain);
    expect((await path('from: "chain-a", to: "chain-e", direction: OUTGOING')).hops).toBe(4);
    expect((await path('from: "chain-a", to: "chain-e", direction: INCOMING')).found).toBe(false);
    expect((await path('from: "chain-e", to: "chain-a", direction: INCOMING')).hops).toBe(4);
    expect((await path('from: "chain-e", to: "chain-a", direction: OUTGOING')).found).toBe(false);
    const both = await path('from: "chain-e", to: "chain-a", direction: BOTH');
    expect(stepKeys(both)).toEqual(['chain-e', 'chain-d', 'chain-c', 'chain-b', 'chain-a']);
  });

  it('walks only edges of the given types, normalising their case', async () => {
    await seed(api(), chain);
    expect((await path('from: "chain-a", to: "chain-c", types: ["RELATED_TO"]')).found).toBe(false);
    expect((await path('from: "chain-a", to: "chain-c", types: ["caused_by"]')).hops).toBe(2);
  });

  it('skips pruned edges, and finds the path again once the edge is strengthened', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.05) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    expect((await path('from: "chain-a", to: "chain-e"')).found).toBe(false);
    await api().gql(
      'mutation { strengthen(from: "chain-b", to: "chain-c", type: "CAUSED_BY", amount: 0.2) { pruned } }',
    );
    expect((await path('from: "chain-a", to: "chain-e"')).hops).toBe(4);
  });

  it('picks the same path among equally short ones every time', async () => {
    const graph = await seed(api(), diamond);
    const answers: PathAnswer[] = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push(await path('from: "diamond-top", to: "diamond-bottom"'));
    answers.push(await path(`from: "${graph.id('top')}", to: "${graph.id('bottom')}"`));
    const first = answers[0] as PathAnswer;
    expect(first.hops).toBe(2);
    expect(stepKeys(first)[0]).toBe('diamond-top');
    expect(['diamond-left', 'diamond-right']).toContain(stepKeys(first)[1]);
    for (const answer of answers) expect(answer).toEqual(first);
  });

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

describe('Memory.path', () => {
  it('answers like Query.path from the parent memory', async () => {
    await seed(api(), diamond);
    const { data } = await api().gql(
      `{ memory(key: "diamond-top") { path(to: "diamond-bottom") { ${PATH_FIELDS} } } }`,
    );
    expect(data?.memory.path).toEqual(await path('from: "diamond-top", to: "diamond-bottom"'));
    const reversed = await api().gql(
      `{ memory(key: "diamond-top") { path(to: "diamond-bottom", direction: INCOMING) { found message } } }`,
    );
    expect(reversed.data?.memory.path).toEqual({
      found: false,
      message: 'No path from diamond-top to diamond-bottom within 4 hops',
    });
  });

  it('honours maxHops and types', async () => {
    await seed(api(), chain);
    const { data } = await api().gql(`{ memory(key: "chain-a") {
      short: path(to: "chain-d", maxHops: 2) { found }
      long: path(to: "chain-d", maxHops: 3) { hops }
      typed: path(to: "chain-d", types: ["CITES"]) { found }
    } }`);
    expect(data?.memory).toEqual({ short: { found: false }, long: { hops: 3 }, typed: { found: false } });
  });

  it('answers hops 0 for a path to the memory itself', async () => {
    await seed(api(), chain);
    const { data } = await api().gql(
      '{ memory(key: "chain-b") { path(to: "chain-b") { found hops steps { memory { key } edgeToNext { id } } } } }',
    );
    expect(data?.memory.path).toEqual({
      found: true,
      hops: 0,
      steps: [{ memory: { key: 'chain-b' }, edgeToNext: null }],
    });
  });

  it('fails with NOT_FOUND naming to when the target is missing', async () => {
    await seed(api(), chain);
    expectError(
      await api().gql('{ memory(key: "chain-a") { path(to: "ghost") { found } } }'),
      'NOT_FOUND',
      'to: no memory "ghost" in this workspace',
    );
  });
});

describe('Memory.neighbors', () => {
  const neighbors = async (args = '') => {
    const response = await api().gql(
      `{ memory(key: "star-hub") { neighbors${args ? `(${args})` : ''} { memory { key } edge { id weight } direction } } }`,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data?.memory.neighbors as {
      memory: { key: string };
      edge: { id: string; weight: number };
      direction: string;
    }[];
  };
  const keys = (list: Awaited<ReturnType<typeof neighbors>>) => list.map((entry) => entry.memory.key);

  /** s2 and s3 both hang on 0.7 edges: the smaller edge id comes first. */
  const tie = (graph: SeededGraph) =>
    byId([graph.edge('hub', 's2').id, graph.edge('hub', 's3').id]).map((id) =>
      id === graph.edge('hub', 's2').id ? 'star-s2' : 'star-s3',
    );

  it('orders by edge weight desc, then edge id, leaving pruned edges out', async () => {
    const graph = await seed(api(), star);
    const list = await neighbors();
    expect(keys(list)).toEqual(['star-s1', ...tie(graph), 'star-s6', 'star-s4']);
    expect(list.map((entry) => entry.edge.weight)).toEqual([0.9, 0.7, 0.7, 0.6, 0.3]);
    expect(list.map((entry) => entry.direction)).toEqual(['OUTGOING', 'OUTGOING', 'OUTGOING', 'INCOMING', 'OUTGOING']);
  });

  it('keeps the strongest edges under limit', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('limit: 1'))).toEqual(['star-s1']);
    expect(keys(await neighbors('limit: 2'))).toEqual(['star-s1', tie(graph)[0]]);
  });

  it('returns at most 20 by default', async () => {
    const memory = (key: string): NewMemory => ({
      id: newId(),
      key,
      title: key,
      content: null,
      kind: null,
      tags: [],
      weight: 0.5,
      metadata: null,
    });
    const hub = memory('star-hub');
    const spokes = Array.from({ length: 22 }, (_, index) => memory(`n${index}`));
    const edges = spokes.map((spoke, index) => ({
      id: newId(),
      fromId: hub.id,
      toId: spoke.id,
      type: 'CITES',
      weight: 0.1 + index * 0.01,
      metadata: null,
    }));
    await api().store.importBatch(DEFAULT_WS, { memories: [hub, ...spokes], edges }, nowIso());
    const list = await neighbors();
    expect(list).toHaveLength(20);
    expect(list[0]?.memory.key).toBe('n21');
    expect(list.at(-1)?.memory.key).toBe('n2');
  });

  it('follows the given direction', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('direction: OUTGOING'))).toEqual(['star-s1', ...tie(graph), 'star-s4']);
    const incoming = await neighbors('direction: INCOMING');
    expect(keys(incoming)).toEqual(['star-s6']);
    expect(incoming[0]?.direction).toBe('INCOMING');
  });

  it('keeps only the given types, normalising their case', async () => {
    await seed(api(), star);
    expect(keys(await neighbors('types: ["cites"]'))).toEqual(['star-s1', 'star-s2']);
    expect(keys(await neighbors('types: ["SUPERSEDES", "related_to"]'))).toEqual(['star-s6', 'star-s4']);
  });

  it('keeps only edges of at least minWeight', async () => {
    const graph = await seed(api(), star);
    expect(keys(await neighbors('minWeight: 0.7'))).toEqual(['star-s1', ...tie(graph)]);
    expect(keys(await neighbors('minWeight: 0.95'))).toEqual([]);
  });

  it('includes pruned edges when asked, weakest last', async () => {
    const graph = await seed(api(), star);
    const list = await neighbors('includePruned: true');
    expect(keys(list)).toEqual(['star-s1', ...tie(graph), 'star-s6', 'star-s4', 'star-s7', 'star-s5']);
    expect(keys(await neighbors('includePruned: true, direction: INCOMING'))).toEqual(['star-s6', 'star-s7']);
  });

  it('rejects minWeight outside 0..1 and limit outside 1..100 with BAD_USER_INPUT naming the argument', async () => {
    await seed(api(), star);
    const ask = (args: string) => api().gql(`{ memory(key: "star-hub") { neighbors(${args}) { edge { id } } } }`);
    expectError(await ask('minWeight: 1.5'), 'BAD_USER_INPUT', 'minWeight: must be between 0 and 1');
    expectError(await ask('limit: 0'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
    expectError(await ask('limit: 101'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
  });
});

describe('Memory.degree', () => {
  it('counts the unpruned edges in the given direction and of the given types', async () => {
    await seed(api(), star);
    const { data, errors } = await api().gql(`{
      hub: memory(key: "star-hub") {
        both: degree
        out: degree(direction: OUTGOING)
        in: degree(direction: INCOMING)
        cites: degree(types: ["cites"])
      }
      s5: memory(key: "star-s5") { degree }
      s1: memory(key: "star-s1") { degree }
    }`);
    expect(errors).toBeUndefined();
    expect(data).toEqual({ hub: { both: 5, out: 4, in: 1, cites: 2 }, s5: { degree: 0 }, s1: { degree: 2 } });
  });
});

describe('Memory.traverse', () => {
  interface Hit {
    memory: { key: string };
    depth: number;
    via: { id: string }[];
  }
  const traverse = async (key: string, args = '') => {
    const response = await api().gql(
      `{ memory(key: "${key}") { traverse${args ? `(${args})` : ''} { memory { key } depth via { id } } } }`,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response.data?.memory.traverse as Hit[];
  };
  const keys = (hits: Hit[]) => hits.map((hit) => hit.memory.key);

  it('walks 3 levels by default, in depth order, with the edges walked in order', async () => {
    const graph = await seed(api(), chain);
    const hits = await traverse('chain-a');
    expect(hits.map((hit) => [hit.memory.key, hit.depth])).toEqual([
      ['chain-b', 1],
      ['chain-c', 2],
      ['chain-d', 3],
    ]);
    expect(hits[2]?.via.map((edge) => edge.id)).toEqual([
      graph.edge('a', 'b').id,
      graph.edge('b', 'c').id,
      graph.edge('c', 'd').id,
    ]);
  });

  it('stops at maxDepth and at limit', async () => {
    await seed(api(), chain);
    expect(keys(await traverse('chain-a', 'maxDepth: 1'))).toEqual(['chain-b']);
    expect(keys(await traverse('chain-a', 'maxDepth: 5'))).toEqual(['chain-b', 'chain-c', 'chain-d', 'chain-e']);
    expect(keys(await traverse('chain-a', 'maxDepth: 5, limit: 2'))).toEqual(['chain-b', 'chain-c']);
  });

  it('orders hits of one depth by the weight of the last edge, strongest first', async () => {
    const graph = await seed(api(), star);
    const hits = await traverse('star-hub', 'maxDepth: 1');
    const [first, second] = byId([graph.id('s2'), graph.id('s3')]);
    const keyOf = (id: string | undefined) => (id === graph.id('s2') ? 'star-s2' : 'star-s3');
    // s2 and s3 tie at 0.7; pruned s5 and s7 are not reached.
    expect(keys(hits)).toEqual(['star-s1', keyOf(first), keyOf(second), 'star-s6', 'star-s4']);
    expect(keys(await traverse('star-hub', 'limit: 2'))).toEqual(['star-s1', keyOf(first)]);
  });

  it('reaches each memory once, at its smallest depth, through the strongest edge of the previous level', async () => {
    const graph = await seed(api(), diamond);
    const hits = await traverse('diamond-top');
    expect(hits.map((hit) => [hit.memory.key, hit.depth])).toEqual([
      ['diamond-left', 1],
      ['diamond-right', 1],
      ['diamond-bottom', 2],
    ]);
    // right -> bottom (0.8) beats left -> bottom (0.6).
    expect(hits[2]?.via.map((edge) => edge.id)).toEqual([
      graph.edge('top', 'right').id,
      graph.edge('right', 'bottom').id,
    ]);
  });

  it('follows the given direction and types', async () => {
    await seed(api(), chain);
    expect(keys(await traverse('chain-a', 'direction: INCOMING'))).toEqual([]);
    expect(keys(await traverse('chain-e', 'direction: INCOMING'))).toEqual(['chain-d', 'chain-c', 'chain-b']);
    expect(keys(await traverse('chain-c', 'direction: BOTH, maxDepth: 1'))).toEqual(['chain-d', 'chain-b']);
    expect(keys(await traverse('chain-a', 'types: ["RELATED_TO"]'))).toEqual([]);
    expect(keys(await traverse('chain-a', 'types: ["caused_by"], maxDepth: 2'))).toEqual(['chain-b', 'chain-c']);
  });

  it('reports each memory of a cycle once', async () => {
    await seed(api(), cycle);
    const hits = await traverse('cycle-a', 'maxDepth: 5');
    expect(hits.map((hit) => hit.depth)).toEqual([1, 1]);
    expect(keys(hits).sort()).toEqual(['cycle-b', 'cycle-c']);
  });

  it('skips pruned edges', async () => {
    const graph = await seed(api(), chain);
    await api().gql('mutation($id: ID!) { setEdgeWeight(id: $id, weight: 0.01) { pruned } }', {
      id: graph.edge('b', 'c').id,
    });
    expect(keys(await traverse('chain-a', 'maxDepth: 5'))).toEqual(['chain-b']);
  });

  it('rejects maxDepth outside 1..5 and limit outside 1..100 with BAD_USER_INPUT naming the argument', async () => {
    await seed(api(), chain);
    const ask = (args: string) => api().gql(`{ memory(key: "chain-a") { traverse(${args}) { depth } } }`);
    expectError(await ask('maxDepth: 0'), 'BAD_USER_INPUT', 'maxDepth: must be between 1 and 5');
    expectError(await ask('maxDepth: 6'), 'BAD_USER_INPUT', 'maxDepth: must be between 1 and 5');
    expectError(await ask('limit: 101'), 'BAD_USER_INPUT', 'limit: must be between 1 and 100');
  });
});

describe("path through the store's one-call search", () => {
  /** One app whose store hides its optional shortestPath while `levelByLevel` is set. */
  async function toggledApp(env: Record<string, string> = {}) {
    const state = { levelByLevel: false };
    const app = await createTestApp({
      // Hundreds of paths asked in quick succession: the per-workspace query budget would throttle them.
      env: { ENGRAM_RATE_POINTS_PER_SECOND: '0', ...env },
      wrapStore: (store) =>
        new Proxy(store, {
          get: (target, property, receiver) =>
            property === 'shortestPath' && state.levelByLevel ? undefined : Reflect.get(target, property, receiver),
        }),
    });
    return { app, state };
  }

  it.each([
    ['the default walk budget', {}],
    ['a walk budget of 3 edges', { ENGRAM_WALK_BUDGET: '3' }],
  ])('answers exactly like the level-by-level walk, with %s', async (_label, env) => {
    const { app, state } = await toggledApp(env);
    try {
      const graphs = [];
      for (const fixture of [chain, diamond, cycle, star, disconnected]) graphs.push(await seed(app, fixture));
      const questions = graphs.flatMap((graph) =>
        graph.fixture.memories.flatMap((from) =>
          graph.fixture.memories.flatMap((to) =>
            ['BOTH', 'OUTGOING', 'INCOMING'].map(
              (direction) =>
                `path(from: "${from.key}", to: "${to.key}", direction: ${direction}, maxHops: ${direction === 'BOTH' ? 4 : 3}) { ${PATH_FIELDS} }`,
            ),
          ),
        ),
      );
      const ask = async () => {
        const answers: unknown[] = [];
        for (let start = 0; start < questions.length; start += 15) {
          const batch = questions.slice(start, start + 15).map((question, index) => `q${index}: ${question}`);
          const response = await app.gql(`{ ${batch.join('\n')} }`);
          expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
          answers.push(...Object.values(response.data ?? {}));
        }
        return answers;
      };
      const oneCall = await ask();
      state.levelByLevel = true;
      const levelByLevel = await ask();
      expect(oneCall).toHaveLength(questions.length);
      expect(oneCall).toEqual(levelByLevel);
    } finally {
      await app.close();
    }
  });
});
