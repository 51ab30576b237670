import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../../src/graphql/index.js';
import { contradictionMix, hypothesisEvidence } from '../../fixtures/research-graphs.js';
import { useResearchApp } from './support.js';

const { seed, ok } = useResearchApp();

describe('MCP operations (schema/operations)', () => {
  const OPERATIONS = ['memory-evidence', 'memory-contradictions', 'memory-context', 'memory-reinforce'];
  const read = (name: string) =>
    readFileSync(new URL(`../../../schema/operations/${name}.graphql`, import.meta.url), 'utf8');

  /** The operation plus the shared fragments it spreads (fragments.graphql), as one document. */
  function documentOf(name: string): string {
    const fragments = new Map(
      read('fragments')
        .split(/(?=^fragment )/m)
        .filter((block) => block.startsWith('fragment '))
        .map((block) => [/^fragment (\w+)/.exec(block)?.[1] as string, block]),
    );
    const used = new Set<string>();
    const pending = [read(name)];
    while (pending.length > 0) {
      for (const [, spread] of (pending.pop() as string).matchAll(/\.\.\.(\w+)/g)) {
        if (spread && !used.has(spread) && fragments.has(spread)) {
          used.add(spread);
          pending.push(fragments.get(spread) as string);
        }
      }
    }
    return [read(name), ...[...used].map((fragment) => fragments.get(fragment))].join('\n');
  }

  it.each(OPERATIONS)('%s is valid against the schema', (name) => {
    expect(validate(schema, parse(documentOf(name))).map((error) => error.message)).toEqual([]);
  });

  it('runs each operation against a research graph', async () => {
    await seed(hypothesisEvidence);
    await seed(contradictionMix);
    const evidence = await ok(documentOf('memory-evidence'), { id: 'hyp' });
    expect(evidence.memory.evidence.supporting).toHaveLength(3);
    const contradictions = await ok(documentOf('memory-contradictions'), { first: 2 });
    expect(contradictions.contradictionsConnection.edges).toHaveLength(2);
    const context = await ok(documentOf('memory-context'), { seeds: ['hyp'], budget: 5 });
    expect(context.context.items[0]).toMatchObject({ role: 'SEED', memory: { key: 'hyp' } });
    const reinforce = await ok(documentOf('memory-reinforce'), {
      ids: context.context.items.map((item: any) => item.memory.id),
    });
    expect(reinforce.reinforceCoRetrieval).toHaveLength(4);
  });
});
