import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fails, ok, type StdioSession } from './helpers.js';
import { startResearchSession } from './research-session.js';

/** A paged tool, a call of it whose list runs past one default answer, and how to read its items. */
interface PagedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The same call's arguments with a different list (for a cursor that must be refused). */
  otherArgs: Record<string, unknown>;
  items: (answer: any) => unknown[];
  idOf: (item: any) => string;
  /** Whether the default answer on this session passes the 4,000-character budget and is cut. */
  cutByDefault: boolean;
}

const PAGED: PagedCall[] = [
  {
    tool: 'memory_search',
    args: { query: 'latency' },
    otherArgs: { query: 'cache' },
    items: (answer) => answer.results,
    idOf: (memory) => memory.id,
    cutByDefault: true,
  },
  {
    tool: 'memory_contradictions',
    args: {},
    otherArgs: { kinds: ['direct'] },
    items: (answer) => answer.contradictions,
    idOf: (pair) => `${pair.source.id}>${pair.target.id}:${pair.kind}`,
    cutByDefault: false,
  },
  {
    tool: 'memory_related',
    args: { memory_id: 'h-cache' },
    otherArgs: { memory_id: 'h-gc' },
    items: (answer) => answer.neighbors,
    idOf: (neighbor) => neighbor.edge.id,
    cutByDefault: true,
  },
  {
    tool: 'memory_history',
    get args() {
      return { edge_id: historyEdge };
    },
    otherArgs: { memory_id: 'h-cache' },
    items: (answer) => answer.events,
    idOf: (event) => event.event_id,
    cutByDefault: false,
  },
];

/** The edge whose weight history the memory_history case pages; set once the session is built. */
let historyEdge = '';

/** More pairs that disagree than the session has, so the contradictions fill several small pages. */
const EXTRA_CONTRADICTIONS: [string, string, number][] = [
  ['e-gc-log', 'h-gc', 0.7],
  ['e-heap', 'f-heap', 0.65],
  ['n-followup', 'h-gc-v2', 0.55],
  ['d-revert', 'f-eviction', 0.45],
];

describe('next_cursor on the MCP list tools (a research session of 12 memories of ~3.4 KB)', () => {
  let dir: string;
  let session: StdioSession;
  let client: Client;

  beforeAll(async () => {
    ({ dir, session } = await startResearchSession('engram-pages-'));
    client = session.client;
    for (const [source_id, target_id, weight] of EXTRA_CONTRADICTIONS)
      await ok(client, 'memory_link', { source_id, target_id, edge_type: 'CONTRADICTS', weight });
    for (const target_id of ['e-gc-log', 'e-heap', 'f-heap'])
      await ok(client, 'memory_link', { source_id: 'h-cache', target_id, edge_type: 'RELATED_TO' });
    historyEdge = (
      await ok(client, 'memory_link', { source_id: 'h-cache', target_id: 'n-followup', edge_type: 'CITES' })
    ).edge.id;
    for (let step = 0; step < 6; step++)
      await ok(client, 'memory_strengthen', { edge_id: historyEdge, amount: 0.01, reason: `confirmed ${step}` });
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every item of the call, following next_cursor; each answer checked against the 4,000 budget. */
  async function walk(paged: PagedCall, extra: Record<string, unknown> = {}) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let answers = 0; answers < 50; answers++) {
      const result = await call(client, paged.tool, { ...paged.args, ...extra, ...(cursor ? { cursor } : {}) });
      expect(result.isError, result.text).toBe(false);
      expect(result.text.length + JSON.stringify(result.structured).length).toBeLessThanOrEqual(4_000);
      seen.push(...paged.items(result.structured).map(paged.idOf));
      cursor = result.structured.next_cursor;
      if (cursor === undefined) return { seen, answers: answers + 1 };
      expect(result.text).toContain(`cursor "${cursor}"`);
    }
    throw new Error(`${paged.tool} did not end`);
  }

  it.each(PAGED)('$tool: default answers cut for size continue at next_cursor, to every item once', async (paged) => {
    const whole = paged.items(await ok(client, paged.tool, { ...paged.args, limit: 100 })).map(paged.idOf);
    expect(whole.length).toBeGreaterThan(3);
    const { seen, answers } = await walk(paged);
    expect(answers > 1).toBe(paged.cutByDefault);
    expect(seen).toEqual(whole);
  });

  it.each(PAGED)('$tool: pages of an explicit limit, to every item once', async (paged) => {
    const whole = paged.items(await ok(client, paged.tool, { ...paged.args, limit: 100 })).map(paged.idOf);
    const { seen, answers } = await walk(paged, { limit: 2 });
    expect(answers).toBe(Math.ceil(whole.length / 2));
    expect(seen).toEqual(whole);
  });

  it.each(PAGED)("$tool: refuses another call's cursor, naming cursor", async (paged) => {
    const first = await ok(client, paged.tool, { ...paged.args, limit: 1 });
    expect(first.next_cursor).toEqual(expect.any(String));
    const refused = await fails(
      client,
      paged.tool,
      { ...paged.otherArgs, cursor: first.next_cursor },
      'BAD_USER_INPUT',
    );
    expect(refused.structured.error.argument).toBe('cursor');
    expect(refused.text).toMatch(/^BAD_USER_INPUT: cursor: /);
  });
});
