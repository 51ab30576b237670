import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampWeight, DEFAULT_WEIGHT_POLICY, roundWeight } from '../../src/domain/weights.js';
import { codes, type HardenedApp, hardenedApp } from './support.js';

const WORKSPACES = ['alpha', 'beta'] as const;
type Ws = (typeof WORKSPACES)[number];
const OPS_PER_WORKSPACE = 1000;

/** A small deterministic PRNG, so a failure replays exactly (the seed is in the test name). */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)],
  };
}

interface Model {
  memories: Map<string, { title: string; weight: number }>;
  /** edge id -> triple and weight */
  edges: Map<string, { from: string; to: string; type: string; weight: number }>;
  /** Every id this workspace ever had (memories, edges, events): none may show up in the other's answers. */
  everSeen: Set<string>;
  created: number;
}

const TYPES = ['CAUSED_BY', 'RELATED_TO', 'CITES'];
const SEED = 20_260_611;

/** Every string inside a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, out);
  return out;
}

function checksum(memories: [string, string, number][], edges: [string, string, string, number][]): string {
  const hash = createHash('sha256');
  for (const row of [...memories].sort((a, b) => (a[0] < b[0] ? -1 : 1))) hash.update(JSON.stringify(row));
  hash.update('|');
  for (const row of [...edges].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)))
    hash.update(JSON.stringify(row));
  return hash.digest('hex');
}

const modelChecksum = (model: Model) =>
  checksum(
    [...model.memories].map(([id, m]) => [id, m.title, m.weight]),
    [...model.edges.values()].map((e) => [e.from, e.to, e.type, e.weight]),
  );

function dbChecksum(dbPath: string, ws: Ws): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const memories = db.prepare(`SELECT id, title, weight FROM memories WHERE workspace = ?`).all(ws) as {
      id: string;
      title: string;
      weight: number;
    }[];
    const edges = db
      .prepare(`SELECT from_id, to_id, type, weight FROM edges WHERE workspace = ? AND id NOT LIKE 'forbidden-%'`)
      .all(ws) as { from_id: string; to_id: string; type: string; weight: number }[];
    return checksum(
      memories.map((m) => [m.id, m.title, m.weight]),
      edges.map((e) => [e.from_id, e.to_id, e.type, e.weight]),
    );
  } finally {
    db.close();
  }
}

describe(`tenant isolation fuzz (seed ${SEED})`, () => {
  let t: HardenedApp;
  const models = new Map<Ws, Model>(
    WORKSPACES.map((ws) => [ws, { memories: new Map(), edges: new Map(), everSeen: new Set(), created: 0 }]),
  );
  const other = (ws: Ws): Ws => (ws === 'alpha' ? 'beta' : 'alpha');
  const leaks: string[] = [];
  const unexpected: string[] = [];
  const counts = new Map<string, number>();

  beforeAll(async () => {
    t = await hardenedApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' }, logLevel: 'silent' });
  });
  afterAll(() => t.close());

  const run = async (ws: Ws, query: string, variables: Record<string, unknown> = {}) => {
    const response = await t.gql(query, variables, { 'x-engram-workspace': ws });
    if (response.status >= 500) unexpected.push(`${ws} ${query}: HTTP ${response.status}`);
    const foreign = models.get(other(ws)) as Model;
    for (const value of strings(response.data ?? null)) {
      if (foreign.everSeen.has(value) || value.startsWith('forbidden-') || value.startsWith(`${other(ws)}-`)) {
        leaks.push(`${ws} saw ${value} in ${query}`);
      }
    }
    return response;
  };

  it('seeds a forbidden cross-workspace edge directly in the database', async () => {
    for (const ws of WORKSPACES) {
      const model = models.get(ws) as Model;
      for (let i = 0; i < 3; i++) {
        const id = `${ws}-m${model.created++}`;
        const response = await run(
          ws,
          `mutation ($id: ID!, $t: String!) { createMemory(input: { id: $id, title: $t }) { id } }`,
          { id, t: `shared words ${id}` },
        );
        expect(response.errors).toBeUndefined();
        model.memories.set(id, { title: `shared words ${id}`, weight: DEFAULT_WEIGHT_POLICY.defaultMemoryWeight });
        model.everSeen.add(id);
      }
    }
    const db = new Database(t.dbPath);
    try {
      db.pragma('foreign_keys = OFF');
      const insert = db.prepare(
        `INSERT INTO edges (workspace, id, from_id, to_id, type, weight, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, 'RELATED_TO', 0.9, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      );
      insert.run('alpha', 'forbidden-a', 'alpha-m0', 'beta-m0');
      insert.run('beta', 'forbidden-b', 'beta-m0', 'alpha-m0');
      insert.run('alpha', 'forbidden-c', 'beta-m1', 'alpha-m1');
    } finally {
      db.close();
    }
  });

  it(`runs ${OPS_PER_WORKSPACE} interleaved random operations per workspace with zero cross-workspace results`, async () => {
    const random = prng(SEED);
    for (let step = 0; step < OPS_PER_WORKSPACE * 2; step++) {
      const ws = WORKSPACES[step % 2] as Ws;
      const model = models.get(ws) as Model;
      const foreign = models.get(other(ws)) as Model;
      const own = [...model.memories.keys()];
      const theirs = [...foreign.memories.keys()];
      const anyOwn = () => random.pick(own) ?? `${ws}-none`;
      const anyTheirs = () => random.pick(theirs) ?? `${other(ws)}-none`;
      const ownEdge = () => random.pick([...model.edges.entries()]);
      const roll = random.int(100);
      const op =
        roll < 14
          ? 'create'
          : roll < 28
            ? 'link'
            : roll < 36
              ? 'nudge'
              : roll < 40
                ? 'delete'
                : roll < 44
                  ? 'update'
                  : roll < 50
                    ? 'crossWrite'
                    : roll < 56
                      ? 'invalid'
                      : 'read';
      counts.set(op, (counts.get(op) ?? 0) + 1);

      if (op === 'create') {
        const id = `${ws}-m${model.created++}`;
        const title = `shared words ${id} ${random.int(1000)}`;
        const r = await run(ws, `mutation ($i: CreateMemoryInput!) { createMemory(input: $i) { id title } }`, {
          i: { id, title },
        });
        expect(r.data?.createMemory.id, JSON.stringify(r.errors)).toBe(id);
        model.memories.set(id, { title, weight: DEFAULT_WEIGHT_POLICY.defaultMemoryWeight });
        model.everSeen.add(id);
      } else if (op === 'link') {
        const from = anyOwn();
        const to = anyOwn();
        const type = random.pick(TYPES) as string;
        const r = await run(ws, `mutation ($i: LinkInput!) { link(input: $i) { id weight from { id } to { id } } }`, {
          i: { from, to, type },
        });
        if (from === to || !model.memories.has(from)) {
          expect(codes(r)[0], `${from}->${to}`).toMatch(/BAD_USER_INPUT|NOT_FOUND/);
        } else {
          const id = r.data?.link.id as string;
          expect(id, JSON.stringify(r.errors)).toBeTruthy();
          if (!model.edges.has(id))
            model.edges.set(id, { from, to, type, weight: DEFAULT_WEIGHT_POLICY.defaultEdgeWeight });
          model.everSeen.add(id);
        }
      } else if (op === 'nudge') {
        const entry = ownEdge();
        if (!entry) continue;
        const [id, edge] = entry;
        const sign = random.int(2) === 0 ? -1 : 1;
        const amount = [0.1, 0.3, 0.05][random.int(3)] as number;
        const r = await run(
          ws,
          `mutation ($f: ID!, $t: ID!, $y: String!, $a: Float!) { ${sign < 0 ? 'weaken' : 'strengthen'}(from: $f, to: $t, type: $y, amount: $a) { newWeight event { id } } }`,
          { f: edge.from, t: edge.to, y: edge.type, a: amount },
        );
        edge.weight = roundWeight(clampWeight(roundWeight(edge.weight + sign * amount), DEFAULT_WEIGHT_POLICY));
        const change = sign < 0 ? r.data?.weaken : r.data?.strengthen;
        expect(change?.newWeight, JSON.stringify(r.errors)).toBeCloseTo(edge.weight, 10);
        model.everSeen.add(change?.event.id);
        model.edges.set(id, edge);
      } else if (op === 'delete') {
        const id = anyOwn();
        const r = await run(ws, `mutation ($id: ID!) { deleteMemory(id: $id) { id deleted edgesRemoved } }`, { id });
        if (!model.memories.has(id)) {
          expect(codes(r)).toEqual(['NOT_FOUND']);
          continue;
        }
        expect(r.data?.deleteMemory.deleted, JSON.stringify(r.errors)).toBe(true);
        model.memories.delete(id);
        for (const [edgeId, edge] of model.edges) if (edge.from === id || edge.to === id) model.edges.delete(edgeId);
      } else if (op === 'update') {
        const id = anyOwn();
        const title = `shared words renamed ${random.int(1000)}`;
        const r = await run(
          ws,
          `mutation ($id: ID!, $t: String!) { updateMemory(id: $id, input: { title: $t }) { title } }`,
          { id, t: title },
        );
        if (model.memories.has(id)) {
          expect(r.data?.updateMemory.title).toBe(title);
          (model.memories.get(id) as { title: string }).title = title;
        }
      } else if (op === 'crossWrite') {
        // Every way of naming the other workspace's things fails, and changes nothing there.
        const target = anyTheirs();
        const theirEdge = random.pick([...foreign.edges.entries()]);
        const attempts: [string, Record<string, unknown>, string[]][] = [
          [`mutation ($id: ID!) { deleteMemory(id: $id) { id } }`, { id: target }, ['NOT_FOUND']],
          [
            `mutation ($id: ID!) { updateMemory(id: $id, input: { title: "hijack" }) { id } }`,
            { id: target },
            ['NOT_FOUND'],
          ],
          [
            `mutation ($f: ID!, $t: ID!) { link(input: { from: $f, to: $t, type: "CITES" }) { id } }`,
            { f: anyOwn(), t: target },
            ['NOT_FOUND', 'BAD_USER_INPUT'],
          ],
          [`mutation ($m: ID!) { feedback(memoryId: $m, signal: USED) { newWeight } }`, { m: target }, ['NOT_FOUND']],
        ];
        if (theirEdge) {
          const [edgeId, edge] = theirEdge;
          attempts.push(
            [
              `mutation ($f: ID!, $t: ID!, $y: String!) { weaken(from: $f, to: $t, type: $y) { newWeight } }`,
              { f: edge.from, t: edge.to, y: edge.type },
              ['NOT_FOUND'],
            ],
            [
              `mutation ($id: ID!) { setEdgeWeight(id: $id, weight: 0.01) { newWeight } }`,
              { id: edgeId },
              ['NOT_FOUND'],
            ],
          );
          const unlinked = await run(ws, `mutation ($id: ID!) { unlink(input: { id: $id }) { removed } }`, {
            id: edgeId,
          });
          expect(unlinked.data?.unlink.removed ?? 0).toBe(0);
        }
        const [query, variables, allowed] = random.pick(attempts) as (typeof attempts)[number];
        const r = await run(ws, query, variables);
        expect(allowed, `${query} ${JSON.stringify(r)}`).toContain(codes(r)[0]);
      } else if (op === 'invalid') {
        const r = await run(ws, `mutation ($i: LinkInput!) { link(input: $i) { id } }`, {
          i: { from: anyOwn(), to: anyOwn(), type: 'not a type!' },
        });
        expect(codes(r)).toEqual(['BAD_USER_INPUT']);
      } else {
        const start = random.int(3) === 0 ? anyTheirs() : anyOwn();
        const reads = [
          [
            `query ($id: ID!) { memory(id: $id) { id title neighbors(includePruned: true) { memory { id } edge { id from { id } to { id } } } } }`,
            { id: start },
          ],
          [
            `query ($id: ID!) { memory(id: $id) { id traverse(maxDepth: 5, limit: 100) { memory { id } via { id } } } }`,
            { id: start },
          ],
          [
            `query ($a: ID!, $b: ID!) { path(from: $a, to: $b, maxHops: 10) { found steps { memory { id } edgeToNext { id } } } }`,
            { a: anyOwn(), b: start },
          ],
          [`query { searchMemories(query: "shared words", limit: 100) { id title } }`, {}],
          [`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, { ids: [anyOwn(), anyTheirs(), start] }],
          [`query { weightEvents(limit: 100) { id edge { id } memory { id } } }`, {}],
          [
            `query ($id: ID!) { edge(id: $id) { id from { id } to { id } } }`,
            {
              id: random.pick([...foreign.edges.keys(), 'forbidden-a', 'forbidden-b', 'forbidden-c']) ?? 'forbidden-a',
            },
          ],
          [`query ($a: ID!, $b: ID!) { edgesBetween(from: $a, to: $b) { id } }`, { a: anyOwn(), b: start }],
          [`query ($id: ID!) { memory(id: $id) { id degree neighbors { memory { id } } } }`, { id: `${ws}-m0` }],
        ] as const;
        const [query, variables] = random.pick(reads) as (typeof reads)[number];
        const r = await run(ws, query, variables);
        for (const code of codes(r)) expect(['NOT_FOUND'], `${query}: ${JSON.stringify(r.errors)}`).toContain(code);
        if (query.startsWith('query ($id: ID!) { memory(id: $id) { id title') && !model.memories.has(start))
          expect(r.data?.memory).toBeNull();
      }
    }
    // The seeded mix reached every kind of operation, cross-workspace writes and invalid input included.
    expect([...counts.keys()].sort()).toEqual([
      'create',
      'crossWrite',
      'delete',
      'invalid',
      'link',
      'nudge',
      'read',
      'update',
    ]);
    expect(unexpected).toEqual([]);
    expect(leaks).toEqual([]);
  });

  it('leaves each workspace exactly as its own operations made it (per-workspace checksums)', async () => {
    for (const ws of WORKSPACES) {
      const model = models.get(ws) as Model;
      expect(dbChecksum(t.dbPath, ws), ws).toBe(modelChecksum(model));
      // And through the API: every memory and edge the model holds, as the workspace sees it.
      const ids = [...model.memories.keys()];
      const seen: [string, string, number][] = [];
      for (let offset = 0; offset < ids.length; offset += 100) {
        const r = await run(ws, `query ($ids: [ID!]!) { memories(ids: $ids) { id title weight } }`, {
          ids: ids.slice(offset, offset + 100),
        });
        for (const memory of r.data?.memories ?? []) seen.push([memory.id, memory.title, memory.weight]);
      }
      const edges: [string, string, string, number][] = [];
      for (const id of model.edges.keys()) {
        const r = await run(ws, `query ($id: ID!) { edge(id: $id) { type weight from { id } to { id } } }`, { id });
        const edge = r.data?.edge;
        edges.push([edge.from.id, edge.to.id, edge.type, edge.weight]);
      }
      expect(checksum(seen, edges), `${ws} via the API`).toBe(modelChecksum(model));
    }
    expect(leaks).toEqual([]);
  });

  it('never returns the forbidden edge from any read', async () => {
    const reads = [
      `{ edge(id: "forbidden-a") { id } }`,
      `{ edge(id: "forbidden-c") { id } }`,
      `{ memory(id: "alpha-m0") { neighbors(includePruned: true) { edge { id } memory { id } } degree traverse(maxDepth: 5) { via { id } memory { id } } } }`,
      `{ memory(id: "alpha-m1") { neighbors(direction: INCOMING, includePruned: true) { edge { id } } traverse(direction: INCOMING) { memory { id } } } }`,
      `{ path(from: "alpha-m0", to: "alpha-m1") { found steps { memory { id } edgeToNext { id } } } }`,
      `{ weightEvents(limit: 100) { id edge { id } } }`,
    ];
    for (const query of reads) {
      const r = await run('alpha', query);
      expect(JSON.stringify(r.data ?? null), query).not.toMatch(/forbidden-|beta-/);
    }
    expect((await run('beta', `{ edge(id: "forbidden-b") { id } }`)).data?.edge ?? null).toBeNull();
    expect(leaks).toEqual([]);
  });
});
