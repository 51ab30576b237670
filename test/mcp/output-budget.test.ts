import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, type StdioSession, TOOL_NAMES } from './helpers.js';
import { startResearchSession } from './research-session.js';

/**
 * What one call with default arguments puts in an agent's context, text and structured content
 * together (some clients pass both to the model), on the research session: 12 memories of about
 * 3.4 KB and 19 relations. Every tool stays under 4,000 characters.
 */
const BUDGET = 4_000;

const PARAGRAPH = 'A realistic memory body, written by an agent during a week of work on one question. '.repeat(40);

/**
 * A hub beside the session: 24 observations about the question, so the lists (neighbors, walks,
 * feedback on every edge) are longer than their default limits, as in a graph used for months.
 */
const HUB_NOTES = Array.from({ length: 24 }, (_, at) => ({
  key: `obs-${at}`,
  title: `Observation ${at}: p99 latency on ${['checkout', 'search', 'payments', 'auth'][at % 4]} during replay window ${at}`,
  kind: 'observation',
  tags: ['latency'],
  content: `Window ${at}. ${PARAGRAPH.slice(0, 1500)}`,
}));

describe('default output of every tool on a research session (text + structuredContent <= 4,000)', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;
  const ids: Record<string, string> = {};
  const sizes: Record<string, { text: number; structured: number; total: number }> = {};

  beforeAll(async () => {
    ({ dir, session } = await startResearchSession('engram-budget-'));
    client = session.client;
    for (const [at, note] of HUB_NOTES.entries()) {
      await ok(client, 'memory_create', note);
      await ok(client, 'memory_link', {
        source_id: note.key,
        target_id: 'q-latency',
        edge_type: at % 3 === 0 ? 'VALIDATES' : 'RELATED_TO',
        weight: 0.3 + (at % 7) / 10,
      });
    }
    // Some history to list.
    for (let round = 0; round < 6; round++)
      await ok(client, 'memory_strengthen', { source_id: 'h-cache', target_id: 'q-latency', edge_type: 'RELATED_TO' });
  }, 180_000);

  afterAll(async () => {
    if (process.env.SHOW_SIZES) console.error(JSON.stringify(sizes, null, 1));
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function measure(name: string, args: Record<string, unknown>): Promise<any> {
    const result = await call(client, name, args);
    expect(result.isError, `${name} failed: ${result.text}`).toBe(false);
    const text = result.text.length;
    const structured = JSON.stringify(result.structured ?? {}).length;
    sizes[name] = { text, structured, total: text + structured };
    return result.structured;
  }

  it('measures every tool, each under budget', async () => {
    const steps: [string, () => Record<string, unknown>][] = [
      ['relation_types', () => ({})],
      ['memory_search', () => ({ query: 'latency' })],
      ['memory_recall', () => ({ query: 'latency' })],
      ['memory_get', () => ({ memory_id: 'q-latency' })],
      ['memory_related', () => ({ memory_id: 'q-latency' })],
      ['memory_traverse', () => ({ memory_id: 'q-latency' })],
      ['memory_path', () => ({ source_id: 'n-followup', target_id: 'd-revert' })],
      ['memory_context', () => ({ seeds: ['q-latency', 'h-cache'] })],
      ['memory_evidence', () => ({ memory_id: 'h-cache' })],
      ['memory_contradictions', () => ({})],
      ['memory_create', () => ({ title: 'Note: p99 recovered after 4.2.1', key: 'f-recovered', content: PARAGRAPH })],
      ['memory_update', () => ({ memory_id: 'f-recovered', content: `${PARAGRAPH} Confirmed.` })],
      ['memory_link', () => ({ source_id: 'f-recovered', target_id: 'd-revert', edge_type: 'VALIDATES' })],
      ['memory_weaken', () => ({ source_id: 'f-recovered', target_id: 'd-revert', edge_type: 'VALIDATES' })],
      ['memory_strengthen', () => ({ source_id: 'f-recovered', target_id: 'd-revert', edge_type: 'VALIDATES' })],
      ['memory_feedback', () => ({ memory_id: 'q-latency', signal: 'used' })],
      ['memory_history', () => ({ edge_id: ids.hubEdge as string })],
      ['memory_reinforce', () => ({ memory_ids: ['h-cache', 'e-replay', 'e-canary'] })],
      ['memory_set_weight', () => ({ edge_id: ids.edge as string, weight: 0.6 })],
      ['memory_revert', () => ({ event_id: ids.event as string })],
      [
        'memory_write',
        () => ({
          memories: [{ ref: '@a', key: 'n-batch', title: 'Batch note', content: PARAGRAPH }],
          edges: [{ source_id: '@a', target_id: 'q-latency', edge_type: 'RELATED_TO' }],
        }),
      ],
      ['memory_unlink', () => ({ source_id: 'f-recovered', target_id: 'd-revert', edge_type: 'VALIDATES' })],
      ['memory_delete', () => ({ memory_id: 'n-batch' })],
    ];
    ids.hubEdge = (
      await ok(client, 'memory_related', { memory_id: 'h-cache', edge_types: ['RELATED_TO'], limit: 1 })
    ).neighbors[0].edge.id;
    for (const [name, args] of steps) {
      const out = await measure(name, args());
      if (name === 'memory_link') ids.edge = out.edge.id;
      if (name === 'memory_strengthen') ids.event = out.event_id;
    }
    expect(Object.keys(sizes).sort()).toEqual([...TOOL_NAMES].sort());
    // The newest version's neighbours are cut the same way (h-gc-v2 SUPERSEDES h-gc).
    const newest = await call(client, 'memory_get', { memory_id: 'h-gc', current_only: true });
    expect(newest.structured.memory.key).toBe('h-gc-v2');
    expect(newest.text.length + JSON.stringify(newest.structured).length).toBeLessThanOrEqual(BUDGET);
    const over = Object.entries(sizes).filter(([, size]) => size.total > BUDGET);
    expect(over, `over ${BUDGET} characters: ${JSON.stringify(over)}`).toEqual([]);
  }, 180_000);
});
