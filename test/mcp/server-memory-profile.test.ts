import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type StdioSession, startStdio } from './helpers.js';

/**
 * A session scripted against the official MCP memory server's behaviour (its tools, arguments,
 * results and messages), run unchanged against `engram mcp --profile server-memory`.
 */
const OFFICIAL_TOOLS = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];

/**
 * What the official server answers: the structured content, and as text the same as JSON (for the
 * write tools, the list itself: create_entities' text is the array its `entities` holds).
 */
async function graphCall(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} failed: ${result.text}`).toBe(false);
  const listed: Record<string, string> = {
    create_entities: 'entities',
    create_relations: 'relations',
    add_observations: 'results',
  };
  const field = listed[name];
  expect(JSON.parse(result.text)).toEqual(field ? result.structured[field] : result.structured);
  return result.structured;
}

async function message(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} failed: ${result.text}`).toBe(false);
  expect(result.structured).toEqual({ success: true, message: result.text });
  return result.text;
}

describe('engram mcp --profile server-memory: a session written for the official server', () => {
  let dir: string;
  let memory: StdioSession;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-server-memory-'));
    memory = await startStdio({
      dbPath: join(dir, 'engram.db'),
      workspace: 'agent',
      args: ['--profile', 'server-memory'],
    });
    client = memory.client;
  }, 60_000);

  afterAll(async () => {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the nine tools with the official argument names', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(OFFICIAL_TOOLS);
    const properties = Object.fromEntries(
      tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]),
    );
    expect(properties).toEqual({
      create_entities: ['entities'],
      create_relations: ['relations'],
      add_observations: ['observations'],
      delete_entities: ['entityNames'],
      delete_observations: ['deletions'],
      delete_relations: ['relations'],
      read_graph: ['cursor'],
      search_nodes: ['query', 'cursor'],
      open_nodes: ['names'],
    });
  });

  it('creates entities, ignoring names that exist (in the store or earlier in the call)', async () => {
    const alice = { name: 'Alice', entityType: 'person', observations: ['Works at Acme', 'Likes tea'] };
    const acme = { name: 'Acme Corp', entityType: 'organization', observations: [] };
    const first = await graphCall(client, 'create_entities', {
      entities: [alice, acme, { ...alice, observations: ['a duplicate'] }],
    });
    expect(first).toEqual({ entities: [alice, acme] });
    const bob = { name: 'Bob', entityType: 'person', observations: ['Speaks Spanish'] };
    expect(await graphCall(client, 'create_entities', { entities: [alice, bob] })).toEqual({ entities: [bob] });
  });

  it('creates relations once, keeping free-text types as given, and refuses a missing entity whole', async () => {
    const relations = [
      { from: 'Alice', to: 'Acme Corp', relationType: 'works_at' },
      { from: 'Bob', to: 'Acme Corp', relationType: 'works at' },
      { from: 'Alice', to: 'Bob', relationType: 'knows' },
    ];
    expect(await graphCall(client, 'create_relations', { relations: [...relations, relations[0]] })).toEqual({
      relations,
    });
    expect(await graphCall(client, 'create_relations', { relations: [relations[0]] })).toEqual({ relations: [] });
    // Two texts that read as one Engram type stay two relations.
    const variant = { from: 'Alice', to: 'Acme Corp', relationType: 'works at' };
    expect(await graphCall(client, 'create_relations', { relations: [variant] })).toEqual({ relations: [variant] });

    const missing = await call(client, 'create_relations', {
      relations: [
        { from: 'Bob', to: 'Alice', relationType: 'knows' },
        { from: 'Alice', to: 'Nobody', relationType: 'knows' },
      ],
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Entity with name Nobody not found');
    const bob = await graphCall(client, 'open_nodes', { names: ['Bob'] });
    expect(bob.relations).not.toContainEqual({ from: 'Bob', to: 'Alice', relationType: 'knows' });
  });

  it('adds only new observations, in order, and refuses a missing entity whole', async () => {
    expect(
      await graphCall(client, 'add_observations', {
        observations: [{ entityName: 'Alice', contents: ['Likes tea', 'Plays chess'] }],
      }),
    ).toEqual({ results: [{ entityName: 'Alice', addedObservations: ['Plays chess'] }] });
    const failed = await call(client, 'add_observations', {
      observations: [
        { entityName: 'Bob', contents: ['Lives in Madrid'] },
        { entityName: 'Nobody', contents: ['x'] },
      ],
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('Entity with name Nobody not found');
    const bob = await graphCall(client, 'open_nodes', { names: ['Bob'] });
    expect(bob.entities[0].observations).toEqual(['Speaks Spanish']);
  });

  it('opens nodes in graph order, with every relation from or to them', async () => {
    const opened = await graphCall(client, 'open_nodes', { names: ['Bob', 'Alice', 'Nobody'] });
    // Relations come edge by edge (texts that share an Engram type together), not in the order made.
    expect({ ...opened, relations: [...opened.relations].sort(relationOrder) }).toEqual({
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['Works at Acme', 'Likes tea', 'Plays chess'] },
        { name: 'Bob', entityType: 'person', observations: ['Speaks Spanish'] },
      ],
      relations: [
        { from: 'Alice', to: 'Acme Corp', relationType: 'works_at' },
        { from: 'Alice', to: 'Acme Corp', relationType: 'works at' },
        { from: 'Bob', to: 'Acme Corp', relationType: 'works at' },
        { from: 'Alice', to: 'Bob', relationType: 'knows' },
      ].sort(relationOrder),
    });
  });

  it('searches names, types and observations as substrings, in any case', async () => {
    const acme = await graphCall(client, 'search_nodes', { query: 'acme' });
    expect(acme.entities.map((e: any) => e.name)).toEqual(['Alice', 'Acme Corp']);
    const people = await graphCall(client, 'search_nodes', { query: 'PERSON' });
    expect(people.entities.map((e: any) => e.name)).toEqual(['Alice', 'Bob']);
    const infix = await graphCall(client, 'search_nodes', { query: 'panis' });
    expect(infix.entities.map((e: any) => e.name)).toEqual(['Bob']);
    expect(infix.relations).toContainEqual({ from: 'Alice', to: 'Bob', relationType: 'knows' });
    expect(await graphCall(client, 'search_nodes', { query: 'zebra' })).toEqual({ entities: [], relations: [] });
  });

  it('deletes observations, relations and entities with the official messages', async () => {
    expect(
      await message(client, 'delete_observations', {
        deletions: [{ entityName: 'Alice', observations: ['Likes tea', 'never said'] }],
      }),
    ).toBe('Deleted 1 of 2 observations.');
    expect(
      await message(client, 'delete_relations', {
        relations: [
          { from: 'Alice', to: 'Bob', relationType: 'knows' },
          { from: 'Alice', to: 'Bob', relationType: 'admires' },
        ],
      }),
    ).toBe('Deleted 1 of 2 relations. The rest matched nothing.');
    expect(
      await message(client, 'delete_relations', {
        relations: [{ from: 'Alice', to: 'Acme Corp', relationType: 'works at' }],
      }),
    ).toBe('Relations deleted successfully');
    expect(await message(client, 'delete_entities', { entityNames: ['Bob', 'Nobody'] })).toBe(
      'Deleted 1 of 2 entities. Not found: Nobody',
    );
    expect(await graphCall(client, 'read_graph', {})).toEqual({
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['Works at Acme', 'Plays chess'] },
        { name: 'Acme Corp', entityType: 'organization', observations: [] },
      ],
      relations: [{ from: 'Alice', to: 'Acme Corp', relationType: 'works_at' }],
    });
  });

  it('keeps every value the official server accepts exactly, however Engram stores it', async () => {
    const odd = [
      { name: ' Dr. Émile Zola ', entityType: '', observations: ['line one\nline two', '', 'tab\there'] },
      { name: 'x'.repeat(600), entityType: 'T'.repeat(80), observations: [''] },
    ];
    expect(await graphCall(client, 'create_entities', { entities: odd })).toEqual({ entities: odd });
    const relation = { from: ' Dr. Émile Zola ', to: 'Alice', relationType: '2nd cousin of (by marriage)' };
    expect(await graphCall(client, 'create_relations', { relations: [relation] })).toEqual({ relations: [relation] });
    const opened = await graphCall(client, 'open_nodes', { names: odd.map((e) => e.name) });
    expect(opened).toEqual({ entities: odd, relations: [relation] });
  });
});

describe('server-memory profile: pages past the official sizes', () => {
  let dir: string;
  let memory: StdioSession;
  let client: Client;
  const entities = Array.from({ length: 620 }, (_, at) => ({
    name: `person-${String(at).padStart(4, '0')}`,
    entityType: 'person',
    observations: [`knows ${at % 7 === 0 ? 'Go' : 'Rust'}`],
  }));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-server-memory-pages-'));
    memory = await startStdio({
      dbPath: join(dir, 'engram.db'),
      workspace: 'big',
      args: ['--profile', 'server-memory'],
    });
    client = memory.client;
    await graphCall(client, 'create_entities', { entities });
    const relations = entities
      .slice(1)
      .map((e, at) => ({ from: e.name, to: entities[at]?.name, relationType: 'follows' }));
    await graphCall(client, 'create_relations', { relations });
  }, 120_000);

  afterAll(async () => {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read_graph answers 500 entities and a next_cursor, then the rest and every relation', async () => {
    const first = await graphCall(client, 'read_graph', {});
    expect(first.entities).toEqual(entities.slice(0, 500));
    expect(first.relations).toEqual([]);
    expect(typeof first.next_cursor).toBe('string');
    const second = await graphCall(client, 'read_graph', { cursor: first.next_cursor });
    expect(second.entities).toEqual(entities.slice(500));
    expect(second.relations).toHaveLength(619);
    expect(second.next_cursor).toBeUndefined();
  });

  it('open_nodes lists every relation of an entity with more than 100 of them', async () => {
    await graphCall(client, 'create_entities', { entities: [{ name: 'hub', entityType: 'team', observations: [] }] });
    const members = entities.slice(0, 150).map((e) => ({ from: 'hub', to: e.name, relationType: 'includes' }));
    expect((await graphCall(client, 'create_relations', { relations: members })).relations).toHaveLength(150);
    const opened = await graphCall(client, 'open_nodes', { names: ['hub'] });
    expect(opened.relations).toHaveLength(150);
    expect(new Set(opened.relations.map((r: any) => r.to))).toEqual(new Set(members.map((r) => r.to)));
    await message(client, 'delete_entities', { entityNames: ['hub'] });
  }, 60_000);

  it('search_nodes pages its matches, and refuses a cursor of another query or another workspace', async () => {
    const go = entities.filter((e) => e.observations[0] === 'knows Go');
    const first = await graphCall(client, 'search_nodes', { query: 'knows rust' });
    expect(first.entities).toHaveLength(200);
    const rest = await graphCall(client, 'search_nodes', { query: 'knows rust', cursor: first.next_cursor });
    const third = rest.next_cursor
      ? await graphCall(client, 'search_nodes', { query: 'knows rust', cursor: rest.next_cursor })
      : { entities: [] };
    expect([...first.entities, ...rest.entities, ...third.entities]).toHaveLength(entities.length - go.length);
    expect((await graphCall(client, 'search_nodes', { query: 'go' })).entities).toEqual(go);

    const foreign = await call(client, 'search_nodes', { query: 'go', cursor: first.next_cursor });
    expect(foreign.isError).toBe(true);
    expect(foreign.structured.error).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'cursor' });
    const other = await startStdio({
      dbPath: join(dir, 'engram.db'),
      workspace: 'elsewhere',
      args: ['--profile', 'server-memory'],
    });
    try {
      const elsewhere = await call(other.client, 'read_graph', {
        cursor: (await graphCall(client, 'read_graph', {})).next_cursor,
      });
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.text).toMatch(/^BAD_USER_INPUT: cursor: /);
    } finally {
      await other.close();
    }
  });
});

const relationOrder = (a: any, b: any): number =>
  JSON.stringify([a.from, a.to, a.relationType]).localeCompare(JSON.stringify([b.from, b.to, b.relationType]));
