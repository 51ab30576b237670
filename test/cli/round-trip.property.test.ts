import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, MemoryRecord } from '../../src/domain/types.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Backups restore: whatever the API accepted, `engram export` writes and `engram import` takes back,
 * record for record. Graphs are built through the API (yoga.fetch over a real SQLite file) from
 * generated input, refused input included: only what the API accepted has to come back. The
 * workspace is exported and imported with the real bin into a fresh database, and both are read
 * back and compared field by field (edge ids and timestamps are not part of the format).
 */

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
const run = promisify(execFile);
/** Each run spawns the bin twice (~2 s each); CI runs more of them. */
const RUNS = process.env.CI === 'true' ? 25 : 6;
const METADATA_LIMIT = 4096;

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Awkward text: every plane, surrogate pairs, line and paragraph separators, BOM, RTL, padding. */
const TRICKY = [
  '🚀',
  'ünïcödé',
  'a\u2028b\u2029c',
  '\ufeffbom',
  'עברית',
  'e\u0301',
  '👩‍👩‍👧',
  '"quoted" \\ back',
  '  padded  ',
  '<b>&amp;</b>',
  '{"json":1}',
];
/** Refused by some rule (labels take no control characters; nothing takes NUL or lone surrogates). */
const REFUSED = ['', '   ', '\r\n', '\t', 'nul\u0000', 'lone\ud800'];
const text = (maxLength: number) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: Math.min(maxLength, 40) }) },
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 20) }) },
    {
      weight: 6,
      arbitrary: fc
        .array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 6 })
        .map((parts) => parts.join('').slice(0, maxLength)),
    },
    { weight: 1, arbitrary: fc.constantFrom('🚀'.repeat(Math.floor(maxLength / 2)), 'é'.repeat(maxLength)) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(maxLength + 1), ...REFUSED) },
  );

const handle = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,12}$/),
  fc.constantFrom('a'.repeat(128), 'x/y:z.w_v-u', '0'),
);

/** Grows a JSON object with one string field until it serializes to exactly `bytes` (emoji count 4). */
function padTo(base: Record<string, unknown>, bytes: number, unit: string, field: string): Record<string, unknown> {
  const padded: Record<string, unknown> = { ...base, [field]: '' };
  let size = byteLength(padded);
  if (size > bytes) return base;
  const step = Buffer.byteLength(unit, 'utf8');
  padded[field] = unit.repeat(Math.floor((bytes - size) / step));
  size = byteLength(padded);
  padded[field] += 'x'.repeat(bytes - size);
  return padded;
}

const metadata = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }),
        fc.integer({ min: 1500, max: METADATA_LIMIT + 2 }),
        fc.constantFrom('x', 'é', '🚀', '\u2028'),
        fc.constantFrom('pad', 'more', 'notes'),
      )
      .map(([base, bytes, unit, field]) => padTo(base, bytes, unit, field)),
  },
);

const memoryInput = fc.record(
  {
    key: fc.option(handle, { nil: null, freq: 2 }),
    title: text(500),
    content: fc.option(text(65_536), { nil: null }),
    kind: fc.option(text(64), { nil: null }),
    tags: fc.array(text(64), { maxLength: 5 }),
    weight: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    metadata,
  },
  { requiredKeys: ['title'] },
);
const memoryInputs = fc
  .uniqueArray(handle, { minLength: 3, maxLength: 12 })
  .chain((ids) => fc.tuple(...ids.map((id) => memoryInput.map((input) => ({ id, ...input })))));

const TYPES = ['CAUSED_BY', 'cites', 'related to', 'X_1', 'A'.repeat(64), 'Supersedes', 'VALIDATES', 'not a type!'];
type Op =
  | { kind: 'link'; from: number; to: number; type: string; weight: number | null; metadata: unknown }
  | { kind: 'update'; m: number; title: string | null; metadata: unknown }
  | { kind: 'weaken'; from: number; to: number; type: string; amount: number }
  | { kind: 'notUseful'; m: number };

const op = (memories: number): fc.Arbitrary<Op> => {
  // Biased to a few memories and one type, so edges are often relinked and their metadata merged.
  const m = fc.oneof(fc.integer({ min: 0, max: Math.min(2, memories - 1) }), fc.integer({ min: 0, max: memories - 1 }));
  const type = fc.oneof(fc.constant('CAUSED_BY'), fc.constantFrom(...TYPES));
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('link' as const),
        from: m,
        to: m,
        type,
        weight: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
        metadata,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('update' as const),
        m,
        title: fc.option(text(500), { nil: null }),
        metadata,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('weaken' as const),
        from: m,
        to: m,
        type,
        amount: fc.constantFrom(0.01, 0.3, 1),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('notUseful' as const), m }) },
  );
};

const graph = memoryInputs.chain((memories) =>
  fc.record({ memories: fc.constant(memories), ops: fc.array(op(memories.length), { minLength: 20, maxLength: 80 }) }),
);

/**
 * Always tried first: a `__proto__` key, keys and values outside the BMP, metadata of exactly
 * 4096 bytes, and relinks whose merge lands just under the limit and then just over it (refused).
 */
const EXAMPLE = {
  memories: [
    {
      id: 'ex/a:1',
      title: '  Ünïcödé 🚀 title  ',
      content: 'line\nline\u2028\u2029end',
      kind: 'fact',
      tags: ['t1', '🚀', 'עברית'],
      weight: 0.123456789,
      metadata: padTo(
        JSON.parse('{"__proto__": {"polluted": true}, "🔑": [1, "é"]}') as Record<string, unknown>,
        METADATA_LIMIT,
        '🚀',
        'pad',
      ),
    },
    { id: 'ex-b', key: 'b.key', title: 'B', metadata: null },
    { id: 'ex-c', title: 'C', content: '', tags: [], metadata: { nested: { deeper: [{}, []] } } },
  ],
  ops: [
    {
      kind: 'link' as const,
      from: 0,
      to: 1,
      type: 'caused by',
      weight: null,
      metadata: padTo({ first: true }, 2000, 'é', 'pad'),
    },
    { kind: 'link' as const, from: 0, to: 1, type: 'CAUSED_BY', weight: 0.7, metadata: padTo({}, 2080, '🚀', 'more') },
    { kind: 'link' as const, from: 0, to: 1, type: 'CAUSED_BY', weight: null, metadata: padTo({}, 200, 'x', 'notes') },
    { kind: 'link' as const, from: 1, to: 2, type: 'VALIDATES', weight: 0, metadata: [] },
    { kind: 'weaken' as const, from: 1, to: 2, type: 'VALIDATES', amount: 1 },
    { kind: 'update' as const, m: 2, title: null, metadata: { '': null } },
    { kind: 'notUseful' as const, m: 0 },
  ],
};

const MEMORY_FIELDS = 'id key title content kind tags weight metadata';
const EDGE_FIELDS = 'from { id } to { id } type weight metadata';

async function readAll(
  store: GraphStore,
  workspace: string,
): Promise<{ memories: MemoryRecord[]; edges: EdgeRecord[] }> {
  const memories: MemoryRecord[] = [];
  const edges: EdgeRecord[] = [];
  for (let page = await store.listMemories(workspace, { afterId: null, limit: 500 }); page.length > 0; ) {
    memories.push(...page);
    page = await store.listMemories(workspace, { afterId: page[page.length - 1]?.id as string, limit: 500 });
  }
  for (let page = await store.listEdges(workspace, { afterId: null, limit: 500 }); page.length > 0; ) {
    edges.push(...page);
    page = await store.listEdges(workspace, { afterId: page[page.length - 1]?.id as string, limit: 500 });
  }
  return { memories, edges };
}

/** The parts of a graph the interchange format carries, in a stable order. */
const comparable = ({ memories, edges }: { memories: MemoryRecord[]; edges: EdgeRecord[] }) => ({
  memories: memories
    .map(({ id, key, title, content, kind, tags, weight, metadata }) => ({
      id,
      key,
      title,
      content,
      kind,
      tags,
      weight,
      metadata,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  edges: edges
    .map(({ fromId, toId, type, weight, metadata }) => ({ key: `${fromId}>${toId}>${type}`, weight, metadata }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
});

describe('engram export then engram import (property)', () => {
  let t: TestApp;
  let dir: string;
  let runs = 0;
  const tally = { accepted: 0, refused: 0, metadataBytesMax: 0, edges: 0 };

  beforeAll(async () => {
    t = await createTestApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' } });
    dir = mkdtempSync(join(tmpdir(), 'engram-roundtrip-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores every memory and edge the API accepted, field for field, into a fresh database', async () => {
    await fc.assert(
      fc.asyncProperty(graph, async ({ memories, ops }) => {
        const n = ++runs;
        const source = `src-${n}`;
        const target = `restored-${n}`;
        /** What the API said it stored, from its answers: only accepted writes. */
        const said = {
          memories: new Map<string, Record<string, unknown>>(),
          edges: new Map<string, Record<string, unknown>>(),
        };
        const accepted = (response: Awaited<ReturnType<TestApp['gql']>>): boolean => {
          if (response.errors) {
            // Refusals are the API's input rules, never a failure of the store.
            for (const error of response.errors)
              expect(['BAD_USER_INPUT', 'CONFLICT', 'NOT_FOUND'], JSON.stringify(error)).toContain(
                error.extensions?.code,
              );
            tally.refused++;
            if (process.env.ROUNDTRIP_DEBUG)
              console.log(response.errors.map((error) => error.message.slice(0, 120)).join(' | '));
            return false;
          }
          tally.accepted++;
          return true;
        };
        const ids: (string | null)[] = [];
        for (const input of memories) {
          const response = await t.gql(
            `mutation($input: CreateMemoryInput!) { createMemory(input: $input) { ${MEMORY_FIELDS} } }`,
            { input },
            { workspace: source },
          );
          const created = accepted(response) ? (response.data?.createMemory as Record<string, unknown>) : null;
          ids.push(created ? (created.id as string) : null);
          if (created) said.memories.set(created.id as string, created);
        }
        for (const step of ops) {
          if (step.kind === 'link' || step.kind === 'weaken') {
            const [from, to] = [ids[step.from], ids[step.to]];
            if (!from || !to) continue;
            const response =
              step.kind === 'link'
                ? await t.gql(
                    `mutation($input: LinkInput!) { link(input: $input) { ${EDGE_FIELDS} } }`,
                    { input: { from, to, type: step.type, weight: step.weight, metadata: step.metadata } },
                    { workspace: source },
                  )
                : await t.gql(
                    `mutation($from: ID!, $to: ID!, $type: String!, $amount: Float!) { weaken(from: $from, to: $to, type: $type, amount: $amount) { edge { ${EDGE_FIELDS} } } }`,
                    { from, to, type: step.type, amount: step.amount },
                    { workspace: source },
                  );
            if (!accepted(response)) continue;
            const edge = (step.kind === 'link' ? response.data?.link : response.data?.weaken?.edge) as {
              from: { id: string };
              to: { id: string };
              type: string;
              weight: number;
              metadata: unknown;
            };
            said.edges.set(`${edge.from.id}>${edge.to.id}>${edge.type}`, {
              weight: edge.weight,
              metadata: edge.metadata,
            });
          } else {
            const id = ids[step.m];
            if (!id) continue;
            const response =
              step.kind === 'update'
                ? await t.gql(
                    `mutation($id: ID!, $input: UpdateMemoryInput!) { updateMemory(id: $id, input: $input) { ${MEMORY_FIELDS} } }`,
                    { id, input: { ...(step.title === null ? {} : { title: step.title }), metadata: step.metadata } },
                    { workspace: source },
                  )
                : await t.gql(
                    `mutation($id: ID!) { feedback(memoryId: $id, signal: NOT_USEFUL) { memory { ${MEMORY_FIELDS} } } }`,
                    { id },
                    { workspace: source },
                  );
            if (!accepted(response)) continue;
            const memory = (
              step.kind === 'update' ? response.data?.updateMemory : response.data?.feedback?.[0]?.memory
            ) as Record<string, unknown> | undefined;
            if (memory) said.memories.set(memory.id as string, memory);
          }
        }

        const before = comparable(await readAll(t.store, source));
        // What is stored is what the API answered, and never over the metadata limit.
        expect(before.memories).toEqual(
          [...said.memories.values()]
            .map(({ id, key, title, content, kind, tags, weight, metadata: m }) => ({
              id,
              key,
              title,
              content,
              kind,
              tags,
              weight,
              metadata: m,
            }))
            .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1)),
        );
        expect(Object.fromEntries(before.edges.map(({ key, ...rest }) => [key, rest]))).toEqual(
          Object.fromEntries(said.edges),
        );
        for (const record of [...before.memories, ...before.edges]) {
          if (record.metadata !== null) {
            const bytes = byteLength(record.metadata);
            expect(bytes).toBeLessThanOrEqual(METADATA_LIMIT);
            tally.metadataBytesMax = Math.max(tally.metadataBytesMax, bytes);
          }
        }
        tally.edges += before.edges.length;

        const file = join(dir, `${source}.ndjson`);
        const restoredDb = join(dir, `${target}.db`);
        const exportEnv = { ...process.env, ENGRAM_SQLITE_PATH: t.dbPath, ENGRAM_LOG_LEVEL: 'silent' };
        await run(process.execPath, [bin, 'export', '--workspace', source, '--output', file], { env: exportEnv });
        expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(
          before.memories.length + before.edges.length,
        );
        const importEnv = { ...process.env, ENGRAM_SQLITE_PATH: restoredDb, ENGRAM_LOG_LEVEL: 'silent' };
        const imported = await run(process.execPath, [bin, 'import', file, '--workspace', target], {
          env: importEnv,
        }).catch((error: { stderr?: string }) => {
          throw new Error(`engram import refused the export of ${source}: ${error.stderr ?? String(error)}`);
        });
        expect(imported.stderr).toMatch(
          new RegExp(`Imported ${before.memories.length} memories and ${before.edges.length} edges`),
        );

        const restoredStore = createSqliteStore({ path: restoredDb });
        try {
          expect(comparable(await readAll(restoredStore, target))).toEqual(before);
        } finally {
          await restoredStore.close();
        }
      }),
      { numRuns: RUNS, endOnFailure: true, examples: [[EXAMPLE]] },
    );
    // The graphs reached what the property is about: writes accepted and refused, edges restored,
    // and metadata stored at exactly the limit (the example's), never over it.
    expect(runs).toBeGreaterThanOrEqual(RUNS);
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.edges).toBeGreaterThan(0);
    expect(tally.metadataBytesMax).toBe(METADATA_LIMIT);
  }, 600_000);
});
