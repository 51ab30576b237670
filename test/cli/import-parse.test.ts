import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportLineError, importNdjson } from '../../src/cli/import-command.js';
import { DEFAULT_WEIGHT_POLICY } from '../../src/domain/weights.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-parse-'));
  store = createSqliteStore({ path: join(dir, 'engram.db'), adjacencyIndex: false });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The bytes of `text` in pieces of `size`: line breaks and multi-byte characters fall across pieces. */
const pieces = (text: string, size: number) => {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return Readable.from(out);
};

const importFrom = (input: Readable, workspace: string) =>
  importNdjson({ store, workspace, policy: DEFAULT_WEIGHT_POLICY, strictTypes: false, input, batchSize: 2 });

const titles = async (workspace: string) =>
  (await store.listMemories(workspace, { afterId: null, limit: 100 })).map((memory) => [memory.id, memory.title]);

const LINES = [
  JSON.stringify({ record: 'memory', id: 'a', title: 'ünïcödé 🚀 one' }),
  JSON.stringify({ record: 'memory', id: 'b', title: 'עברית two' }),
  '',
  JSON.stringify({ record: 'memory', id: 'c', title: 'e\u0301 three' }),
  JSON.stringify({ record: 'edge', from: 'a', to: 'c', type: 'CITES' }),
];

describe('engram import parsing in a worker thread', () => {
  it('reads the same records whatever the input’s pieces, with \\n, \\r\\n and \\r line breaks', async () => {
    const text = `${LINES[0]}\n${LINES[1]}\r\n${LINES[2]}\r${LINES[3]}\n${LINES[4]}`;
    const whole = await importFrom(Readable.from([text]), 'whole');
    const split = await importFrom(pieces(text, 3), 'split');
    expect({ ...split, ms: 0 }).toEqual({ ...whole, ms: 0 });
    expect(whole).toMatchObject({ lines: 5, memories: 3, edges: 1 });
    expect(await titles('split')).toEqual(await titles('whole'));
    expect(await titles('whole')).toEqual([
      ['a', 'ünïcödé 🚀 one'],
      ['b', 'עברית two'],
      ['c', 'e\u0301 three'],
    ]);
  });

  it('counts lines across pieces when it names a bad one', async () => {
    const text = `${LINES[0]}\r\n${LINES[1]}\r\n\r\n{"record":"memory","id":"x"}\r\n${LINES[3]}\r\n`;
    const error = await importFrom(pieces(text, 5), 'bad').then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ImportLineError);
    expect((error as ImportLineError).line).toBe(4);
  });
});
