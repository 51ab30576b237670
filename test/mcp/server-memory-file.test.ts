import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** A memory.jsonl as the official server writes it: entities, then relations, one per line. */
const ENTITIES = [
  { name: 'Alice', entityType: 'person', observations: ['Works at Acme', 'Prefers tea over coffee'] },
  { name: 'Acme Corp', entityType: 'organization', observations: ['Founded 1999', 'HQ: "Berlin" 🚀'] },
  { name: 'Bob', entityType: 'person', observations: [] },
  { name: 'project-x', entityType: 'project', observations: ['multi\nline', ''] },
];
const RELATIONS = [
  { from: 'Alice', to: 'Acme Corp', relationType: 'works at' },
  { from: 'Bob', to: 'Acme Corp', relationType: 'works_at' },
  { from: 'Alice', to: 'Acme Corp', relationType: 'works_at' },
  { from: 'Alice', to: 'project-x', relationType: 'leads' },
  { from: 'project-x', to: 'Bob', relationType: 'is staffed by' },
];
const FILE = `${[
  ...ENTITIES.map((e) => JSON.stringify({ type: 'entity', ...e })),
  ...RELATIONS.map((r) => JSON.stringify({ type: 'relation', ...r })),
].join('\n')}\n`;

const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

describe('the official memory.jsonl: engram import, the profile, engram export --format server-memory', () => {
  let dir: string;
  let dbPath: string;
  const engram = (...args: string[]) =>
    run(process.execPath, [join(ROOT, 'bin/engram.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'warn' },
    });

  async function readGraph(): Promise<any> {
    const session = await startStdio({ dbPath, workspace: 'migrated', args: ['--profile', 'server-memory'] });
    try {
      const result = await call(session.client, 'read_graph');
      expect(result.isError, result.text).toBe(false);
      return result.structured;
    } finally {
      await session.close();
    }
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-server-memory-file-'));
    dbPath = join(dir, 'engram.db');
    writeFileSync(join(dir, 'memory.jsonl'), FILE);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports the file (recognised by its lines) and reads it back exactly through the profile', async () => {
    const { stderr } = await engram('import', join(dir, 'memory.jsonl'), '--workspace', 'migrated');
    expect(stderr).toMatch(/Imported 4 memories and 4 edges/);
    const graph = await readGraph();
    expect(graph.entities).toEqual(ENTITIES);
    expect([...graph.relations].sort(byText)).toEqual([...RELATIONS].sort(byText));
    expect(graph.next_cursor).toBeUndefined();
  }, 60_000);

  it('is the same graph for the rest of Engram: keys, kinds, content lines, typed edges', async () => {
    const session = await startStdio({ dbPath, workspace: 'migrated' });
    try {
      const alice = await call(session.client, 'memory_get', { memory_id: 'Alice' });
      expect(alice.structured.memory).toMatchObject({
        key: 'Alice',
        title: 'Alice',
        kind: 'person',
        content: 'Works at Acme\nPrefers tea over coffee',
      });
      expect(alice.structured.neighbors.map((n: any) => n.edge_type).sort()).toEqual(['LEADS', 'WORKS_AT']);
      const path = await call(session.client, 'memory_path', { source_id: 'Alice', target_id: 'Bob' });
      expect(path.structured.found).toBe(true);
      // A user correction, which a second import of the file must not undo. Engram tools name a
      // memory by key, and "Acme Corp" (with a space) has a hashed one: the id is taken instead.
      const weakened = await call(session.client, 'memory_weaken', {
        source_id: 'Alice',
        target_id: 'Acme Corp',
        edge_type: 'WORKS_AT',
      });
      expect(weakened.isError, weakened.text).toBe(true);
      const byKey = await call(session.client, 'memory_weaken', {
        source_id: 'Alice',
        target_id: alice.structured.neighbors.find((n: any) => n.edge_type === 'WORKS_AT').memory.id,
        edge_type: 'WORKS_AT',
      });
      expect(byKey.structured.new_weight).toBe(0.2);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('imports the same file again without changing anything, weights moved by feedback included', async () => {
    const before = await readGraph();
    await engram('import', join(dir, 'memory.jsonl'), '--workspace', 'migrated');
    expect(await readGraph()).toEqual(before);
    const session = await startStdio({ dbPath, workspace: 'migrated' });
    try {
      const alice = await call(session.client, 'memory_get', { memory_id: 'Alice', neighbor_limit: 10 });
      expect(alice.structured.neighbors.find((n: any) => n.edge_type === 'WORKS_AT').edge_weight).toBe(0.2);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('exports a file the official server reads as the same graph', async () => {
    const out = join(dir, 'exported.jsonl');
    await engram('export', '--workspace', 'migrated', '--format', 'server-memory', '--output', out);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line));
    expect(records.filter((r) => r.type === 'entity')).toEqual(ENTITIES.map((e) => ({ type: 'entity', ...e })));
    expect(records.filter((r) => r.type === 'relation').sort(byText)).toEqual(
      RELATIONS.map((r) => ({ type: 'relation', ...r })).sort(byText),
    );
    // Line by line, the same text as the file imported (relations come edge by edge).
    expect([...lines].sort()).toEqual(FILE.trimEnd().split('\n').sort());
  }, 60_000);

  it('refuses a bad line with its number and writes nothing', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ type: 'entity', ...ENTITIES[0] })}\n{"type":"relation","from":"Alice"}\n`);
    const failed = await engram('import', bad, '--workspace', 'other').catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/line 2: to: /);
    expect(failed.stderr).toMatch(/nothing was written/);
    const session = await startStdio({ dbPath, workspace: 'other', args: ['--profile', 'server-memory'] });
    try {
      expect((await call(session.client, 'read_graph')).structured).toEqual({ entities: [], relations: [] });
    } finally {
      await session.close();
    }
  }, 60_000);
});
