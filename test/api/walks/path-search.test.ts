import { describe, expect, it } from 'vitest';
import { chain, cycle, diamond, disconnected, star } from '../../fixtures/graphs.js';
import { createTestApp } from '../../helpers/app.js';
import { seed } from '../support.js';
import { PATH_FIELDS } from './support.js';

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
