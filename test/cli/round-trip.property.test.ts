import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type CliSession, createCliSession } from '../helpers/cli-session.js';
import { FULL_TESTS } from '../helpers/full-tests.js';
import {
  byteLength,
  comparable,
  EDGE_FIELDS,
  EXAMPLE,
  graph,
  MEMORY_FIELDS,
  METADATA_LIMIT,
  readAll,
} from './round-trip-graphs.js';

/**
 * Backups restore: whatever the API accepted, `engram export` writes and `engram import` takes back,
 * record for record. Graphs are built through the API (yoga.fetch over a real SQLite file) from
 * generated input, refused input included: only what the API accepted has to come back. The
 * workspace is exported and imported by the engram CLI's commands into a fresh database, and both
 * are read back and compared field by field (edge ids and timestamps are not part of the format).
 * The commands run in one CLI process for the whole file (createCliSession): what is under test is
 * the format, and the bin's own start-up is proven by import-export.test.ts.
 */

/** `npm run test:full` (which CI runs) runs more of them. */
const RUNS = FULL_TESTS ? 25 : 6;

describe('engram export then engram import (property)', () => {
  let t: TestApp;
  let cli: CliSession;
  let dir: string;
  let runs = 0;
  const tally = { accepted: 0, refused: 0, metadataBytesMax: 0, edges: 0 };

  beforeAll(async () => {
    t = await createTestApp({ env: { ENGRAM_RATE_POINTS_PER_SECOND: '0' } });
    cli = createCliSession();
    dir = mkdtempSync(join(tmpdir(), 'engram-roundtrip-'));
  });
  afterAll(async () => {
    await cli.close();
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
        const exported = await cli.run(['export', '--workspace', source, '--output', file], {
          ENGRAM_SQLITE_PATH: t.dbPath,
          ENGRAM_LOG_LEVEL: 'silent',
        });
        expect(exported.exitCode, exported.stderr).toBe(0);
        expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(
          before.memories.length + before.edges.length,
        );
        const imported = await cli.run(['import', file, '--workspace', target], {
          ENGRAM_SQLITE_PATH: restoredDb,
          ENGRAM_LOG_LEVEL: 'silent',
        });
        expect(imported.exitCode, `engram import refused the export of ${source}: ${imported.stderr}`).toBe(0);
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
