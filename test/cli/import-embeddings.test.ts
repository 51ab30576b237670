import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type EmbeddingServer, startEmbeddingServer } from '../api/vectors/embedding-server.js';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
const run = promisify(execFile);
const WS = 'library';
const MEMORIES = 70;

let dir: string;
let endpoint: EmbeddingServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engram-import-embed-'));
  endpoint = await startEmbeddingServer();
});
afterEach(async () => {
  await endpoint.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** 70 memories, one edge: three batches of ENGRAM_EMBEDDINGS_BATCH=32. */
function graphFile(): string {
  const file = join(dir, 'graph.ndjson');
  const lines = Array.from({ length: MEMORIES }, (_, i) =>
    JSON.stringify({ record: 'memory', id: `m${i}`, title: `note ${i} about caches`, content: `body ${i}` }),
  );
  lines.push(JSON.stringify({ record: 'edge', from: 'm0', to: 'm1', type: 'RELATED_TO' }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const envFor = (dbPath: string) => ({
  ...process.env,
  ENGRAM_SQLITE_PATH: dbPath,
  ENGRAM_LOG_LEVEL: 'silent',
  ENGRAM_EMBEDDINGS_URL: endpoint.url,
  ENGRAM_EMBEDDINGS_MODEL: 'test-bag-of-words',
});

async function waiting(dbPath: string): Promise<number> {
  const store = createSqliteStore({ path: dbPath });
  try {
    return (await store.memoriesNeedingEmbedding(WS, 1000)).length;
  } finally {
    await store.close();
  }
}

describe('engram import with an embeddings endpoint', () => {
  it('embeds every imported memory in batches before it returns', async () => {
    const dbPath = join(dir, 'engram.db');
    const imported = await run(process.execPath, [bin, 'import', graphFile(), '--workspace', WS], {
      env: envFor(dbPath),
    });
    expect(imported.stderr).toMatch(/Imported 70 memories and 1 edges/);
    expect(imported.stderr).toMatch(/Embedded 70 memories with test-bag-of-words/);
    expect(endpoint.requests.map((request) => request.inputs.length)).toEqual([32, 32, 6]);
    expect(await waiting(dbPath)).toBe(0);
  });

  it('keeps the import when the endpoint fails, and leaves the rest to the back-fill', async () => {
    const dbPath = join(dir, 'engram.db');
    // Every call fails, and the client is told not to retry.
    endpoint.failNext = 1000;
    const imported = await run(process.execPath, [bin, 'import', graphFile(), '--workspace', WS], {
      env: { ...envFor(dbPath), ENGRAM_EMBEDDINGS_RETRIES: '0' },
    });
    expect(imported.stderr).toMatch(/Imported 70 memories and 1 edges/);
    expect(imported.stderr).toMatch(/Embedding stopped after 0 memories .*back-fill will embed the rest/);
    expect(await waiting(dbPath)).toBe(MEMORIES);
  });
});
