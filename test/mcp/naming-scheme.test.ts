import { beforeAll, describe, expect, it } from 'vitest';
import { ok, useStdioSession } from './helpers.js';

/** The spellings docs/mcp.md's naming scheme replaced: edge ends and contradiction sides. */
const RETIRED_NAMES = ['from', 'to', 'from_id', 'to_id', 'a', 'b', 'a_id', 'b_id'];

/** Every property name anywhere in a structured result. */
function namesIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) namesIn(item, found);
  else if (value !== null && typeof value === 'object')
    for (const [name, inner] of Object.entries(value)) {
      found.add(name);
      namesIn(inner, found);
    }
  return found;
}

describe('one naming scheme across the tools', () => {
  const stdio = useStdioSession({ workspace: 'naming' });
  const client = () => stdio.client();

  beforeAll(async () => {
    await ok(client(), 'memory_write', {
      memories: [
        { key: 'claim', title: 'Caching halves p99 latency', kind: 'hypothesis' },
        { key: 'bench', title: 'Benchmark: p99 down 48% with the cache', kind: 'experiment' },
        { key: 'rerun', title: 'Rerun on other hardware: no change in p99', kind: 'experiment' },
      ],
      edges: [
        { source_id: 'bench', target_id: 'claim', edge_type: 'VALIDATES', weight: 0.9 },
        { source_id: 'rerun', target_id: 'claim', edge_type: 'CONTRADICTS', weight: 0.7 },
      ],
    });
  });

  it('names edge ends source/target and contradiction sides source/target in every output', async () => {
    const link = await ok(client(), 'memory_link', { source_id: 'rerun', target_id: 'bench', edge_type: 'CITES' });
    const outputs = [
      link,
      await ok(client(), 'memory_get', { memory_id: 'claim' }),
      await ok(client(), 'memory_related', { memory_id: 'claim', detail: 'full' }),
      await ok(client(), 'memory_traverse', { memory_id: 'bench', detail: 'full' }),
      await ok(client(), 'memory_path', { source_id: 'bench', target_id: 'rerun' }),
      await ok(client(), 'memory_evidence', { memory_id: 'claim' }),
      await ok(client(), 'memory_contradictions'),
      await ok(client(), 'memory_context', { seeds: ['claim'], detail: 'full' }),
      await ok(client(), 'memory_weaken', { edge_id: link.edge.id, reason: 'naming check' }),
      await ok(client(), 'memory_history', { edge_id: link.edge.id }),
      await ok(client(), 'memory_unlink', { edge_id: link.edge.id }),
    ];
    const names = namesIn(outputs);
    expect(RETIRED_NAMES.filter((name) => names.has(name))).toEqual([]);
    expect(link.edge).toMatchObject({
      source_id: expect.any(String),
      source: { key: 'rerun' },
      target: { key: 'bench' },
    });
    const [pair] = (await ok(client(), 'memory_contradictions')).contradictions;
    expect(pair).toMatchObject({ source: { key: 'rerun' }, target: { key: 'claim' } });
  });
});
