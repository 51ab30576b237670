import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportNdjson } from '../../src/cli/export-command.js';
import { ImportLineError, importNdjson } from '../../src/cli/import-command.js';
import { EngramError } from '../../src/domain/errors.js';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const WS = 'library';

const RECORDS = [
  {
    record: 'memory',
    id: 'm1',
    key: 'postgres-choice',
    title: 'We chose Postgres',
    content: 'ACID and tooling.',
    kind: 'decision',
    tags: ['db'],
    weight: 0.7,
    metadata: { by: 'team' },
  },
  {
    record: 'memory',
    id: 'm2',
    key: null,
    title: 'We need ACID transactions',
    content: null,
    kind: 'fact',
    tags: [],
    weight: 0.5,
    metadata: null,
  },
  {
    record: 'memory',
    id: 'm3',
    key: 'bench',
    title: 'Benchmark: "quotes", ünïcödé & emoji 🚀',
    content: 'line one\nline two',
    kind: null,
    tags: ['a', 'b'],
    weight: 0.25,
    metadata: [1, 'two'],
  },
  { record: 'edge', from: 'm1', to: 'm2', type: 'CAUSED_BY', weight: 0.5, metadata: null },
  { record: 'edge', from: 'm3', to: 'm1', type: 'VALIDATES', weight: 0.9, metadata: { run: 3 } },
  { record: 'edge', from: 'm2', to: 'm1', type: 'RELATED_TO', weight: 0.04, metadata: null },
];

const ndjson = (records: readonly unknown[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

let dir: string;
let store: GraphStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
  store = createSqliteStore({ path: join(dir, 'engram.db') });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const importText = (text: string, options: { batchSize?: number; strictTypes?: boolean } = {}) =>
  importNdjson({
    store,
    workspace: WS,
    policy: DEFAULT_WEIGHT_POLICY,
    strictTypes: options.strictTypes ?? false,
    input: Readable.from([text]),
    batchSize: options.batchSize,
  });

async function exportText(workspace = WS): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  await exportNdjson(store, workspace, sink);
  return text;
}

const parsed = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const sortRecords = (records: Record<string, unknown>[]) =>
  [...records].sort((a, b) =>
    JSON.stringify([a.record, a.id ?? '', a.from ?? '', a.to ?? '', a.type ?? '']).localeCompare(
      JSON.stringify([b.record, b.id ?? '', b.from ?? '', b.to ?? '', b.type ?? '']),
    ),
  );

async function counts(): Promise<{ memories: number; edges: number }> {
  const memories = await store.listMemories(WS, { afterId: null, limit: 1000 });
  const edges = await store.listEdges(WS, { afterId: null, limit: 1000 });
  return { memories: memories.length, edges: edges.length };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the import to fail');
}

describe('engram import / export', () => {
  it('round-trips a file: import then export gives the same records', async () => {
    const summary = await importText(ndjson(RECORDS));
    expect(summary).toMatchObject({ memories: 3, edges: 3, lines: 6 });
    const exported = parsed(await exportText());
    expect(sortRecords(exported)).toEqual(sortRecords(RECORDS as Record<string, unknown>[]));
    // Memories first, then edges, as a re-import needs them.
    expect(exported.map((record) => record.record)).toEqual(['memory', 'memory', 'memory', 'edge', 'edge', 'edge']);
  });

  it('fills left-out optional fields with the defaults and normalises relation types', async () => {
    await importText(
      ndjson([
        { record: 'memory', id: 'a', title: 'A' },
        { record: 'memory', id: 'b', title: 'B' },
        { record: 'edge', from: 'a', to: 'b', type: 'caused by' },
      ]),
    );
    expect(parsed(await exportText())).toEqual([
      {
        record: 'memory',
        id: 'a',
        key: null,
        title: 'A',
        content: null,
        kind: null,
        tags: [],
        weight: 0.5,
        metadata: null,
      },
      {
        record: 'memory',
        id: 'b',
        key: null,
        title: 'B',
        content: null,
        kind: null,
        tags: [],
        weight: 0.5,
        metadata: null,
      },
      { record: 'edge', from: 'a', to: 'b', type: 'CAUSED_BY', weight: 0.5, metadata: null },
    ]);
  });

  it('is idempotent: importing the same file again duplicates nothing and keeps edge ids', async () => {
    await importText(ndjson(RECORDS));
    const edgesBefore = await store.listEdges(WS, { afterId: null, limit: 100 });
    const again = await importText(ndjson(RECORDS), { batchSize: 2 });
    expect(again).toMatchObject({ memories: 3, edges: 3 });
    expect(await counts()).toEqual({ memories: 3, edges: 3 });
    expect((await store.listEdges(WS, { afterId: null, limit: 100 })).map((edge) => edge.id)).toEqual(
      edgesBefore.map((edge) => edge.id),
    );
    expect(sortRecords(parsed(await exportText()))).toEqual(sortRecords(RECORDS as Record<string, unknown>[]));
  });

  it('re-imports its own export into an empty workspace of another database, record for record', async () => {
    await importText(ndjson(RECORDS));
    const first = await exportText();
    await store.close();
    store = createSqliteStore({ path: join(dir, 'other.db') });
    await importText(first, { batchSize: 1 });
    expect(await exportText()).toBe(first);
  });

  it('rejects a bad line with its line number and writes nothing of its batch', async () => {
    const lines = ndjson(RECORDS).split('\n');
    lines.splice(
      4,
      0,
      JSON.stringify({ record: 'edge', from: 'm1', to: 'm3', type: 'not a valid type!', weight: 0.5 }),
    );
    const error = await rejection(importText(lines.join('\n')));
    expect(error).toBeInstanceOf(ImportLineError);
    expect((error as ImportLineError).line).toBe(5);
    expect(error.message).toMatch(/^line 5: type: must be UPPER_SNAKE_CASE/);
    expect(await counts()).toEqual({ memories: 0, edges: 0 });
  });

  it.each([
    ['broken JSON', '{"record":"memory","id":"x",', /^line 2: not valid JSON/],
    ['an unknown record kind', '{"record":"node","id":"x"}', /^line 2: record: must be "memory" or "edge"/],
    ['an unknown field', '{"record":"memory","id":"x","title":"X","titel":"typo"}', /^line 2: .*titel/],
    [
      'a weight above 1',
      '{"record":"edge","from":"m1","to":"m2","type":"CITES","weight":1.5}',
      /^line 2: weight: must be between 0 and 1/,
    ],
    [
      'a self-link',
      '{"record":"edge","from":"m1","to":"m1","type":"CITES"}',
      /^line 2: to: a memory cannot be linked to itself/,
    ],
    ['a memory without id', '{"record":"memory","title":"No id"}', /^line 2: id: /],
  ])('rejects %s with its line number', async (_name, bad, message) => {
    const text = `${JSON.stringify(RECORDS[0])}\n${bad}\n${JSON.stringify(RECORDS[1])}\n`;
    const error = await rejection(importText(text));
    expect(error.message).toMatch(message);
    expect(await counts()).toEqual({ memories: 0, edges: 0 });
  });

  it('names the line of an edge whose memory is neither in the file before it nor in the workspace', async () => {
    const text = ndjson([RECORDS[0], RECORDS[1], { record: 'edge', from: 'm1', to: 'ghost', type: 'CITES' }]);
    const error = await rejection(importText(text));
    expect(error).toBeInstanceOf(EngramError);
    expect(error.message).toMatch(/^line 3: to: no memory "ghost"/);
    expect(await counts()).toEqual({ memories: 0, edges: 0 });
  });

  it('keeps the batches committed before a bad line, and none after', async () => {
    const text = ndjson([RECORDS[0], RECORDS[1], RECORDS[2], { record: 'memory', id: 'bad', title: '' }, RECORDS[3]]);
    const error = await rejection(importText(text, { batchSize: 2 }));
    expect(error.message).toMatch(/^line 4: title: must not be empty/);
    expect(await counts()).toEqual({ memories: 2, edges: 0 });
  });

  it('refuses unknown relation types when strict types are on', async () => {
    const text = ndjson([RECORDS[0], RECORDS[1], { record: 'edge', from: 'm1', to: 'm2', type: 'LOOKS_LIKE' }]);
    const error = await rejection(importText(text, { strictTypes: true }));
    expect(error.message).toMatch(/^line 3: type: "LOOKS_LIKE" is not a known relation type/);
  });

  it('exports only the given workspace', async () => {
    await importText(ndjson(RECORDS));
    expect(await exportText('elsewhere')).toBe('');
  });
});

describe('the engram bin', () => {
  const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
  const run = promisify(execFile);

  it('imports a file and exports it again through the same config variables as the server', async () => {
    const file = join(dir, 'graph.ndjson');
    writeFileSync(file, ndjson(RECORDS));
    const env = { ...process.env, ENGRAM_SQLITE_PATH: join(dir, 'bin.db'), ENGRAM_LOG_LEVEL: 'silent' };
    const imported = await run(process.execPath, [bin, 'import', file, '--workspace', WS], { env });
    expect(imported.stderr).toMatch(/Imported 3 memories and 3 edges into workspace "library"/);
    const exported = await run(process.execPath, [bin, 'export', '--workspace', WS], { env });
    expect(sortRecords(parsed(exported.stdout))).toEqual(sortRecords(RECORDS as Record<string, unknown>[]));
    const output = join(dir, 'out.ndjson');
    await run(process.execPath, [bin, 'export', '-w', WS, '--output', output], { env });
    expect(readFileSync(output, 'utf8')).toBe(exported.stdout);
  });

  it('exits non-zero with the line number of a bad line', async () => {
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, `${JSON.stringify(RECORDS[0])}\n{"record":"edge"}\n`);
    const env = { ...process.env, ENGRAM_SQLITE_PATH: join(dir, 'bin.db'), ENGRAM_LOG_LEVEL: 'silent' };
    const failure = await run(process.execPath, [bin, 'import', file], { env }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/engram import: line 2: /);
    expect(failure?.stderr).toMatch(/nothing was written/);
  });
});

describe('the engram bin with a store path it cannot open', () => {
  const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));

  it.each(['import', 'export'])('engram %s prints one line naming ENGRAM_SQLITE_PATH and exits 1', async (command) => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const env = { ...process.env, ENGRAM_SQLITE_PATH: join(blocker, 'engram.db'), ENGRAM_LOG_LEVEL: 'silent' };
    const args = command === 'import' ? [bin, 'import', blocker] : [bin, 'export'];
    const failure = await promisify(execFile)(process.execPath, args, { env }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure?.stderr.trim().split('\n') ?? [];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^engram ${command}: ENGRAM_SQLITE_PATH=.*a-file/engram\\.db: `));
  });
});
