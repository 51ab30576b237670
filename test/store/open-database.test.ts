import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartupError } from '../../src/domain/errors.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

describe('createSqliteStore opening its file', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-open-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates every missing folder of the path, one level at a time', async () => {
    const path = join(root, 'a', 'b', 'c', 'engram.db');
    const store = createSqliteStore({ path });
    await store.ping();
    await store.close();
    expect(statSync(join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('describes itself by the absolute path of the file it opened, for the start-up line', async () => {
    const path = join(root, 'engram.db');
    const store = createSqliteStore({ path: relative(process.cwd(), path) });
    await store.close();
    expect(store.description).toBe(`sqlite ${path}`);
  });

  it('opens an existing database file again', async () => {
    const path = join(root, 'engram.db');
    await createSqliteStore({ path }).close();
    const again = createSqliteStore({ path });
    await again.ping();
    await again.close();
  });

  it('throws StartupError naming the file in the way when a regular file stands where a folder must be', () => {
    const file = join(root, 'file');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'deeper', 'engram.db');
    expect(() => createSqliteStore({ path })).toThrow(StartupError);
    expect(() => createSqliteStore({ path })).toThrow(
      `ENGRAM_SQLITE_PATH=${path}: ${file} is a file, not a directory (ENOTDIR); point it at a path under a directory`,
    );
  });

  it('throws StartupError when the path is a directory', () => {
    expect(() => createSqliteStore({ path: root })).toThrow(StartupError);
  });
});
