import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeListenError } from '../../src/listen.js';
import { runToExit } from '../helpers/process.js';

/** Exactly one line on stderr, and no stack frame in it. */
const oneLine = (stderr: string) => {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0];
};

describe('first-run mistakes (real server process)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-first-run-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (extra: Record<string, string>) => ({ ENGRAM_SQLITE_PATH: join(dir, 'engram.db'), ...extra });

  it('a busy port: one line naming PORT and HOST and the fix, exit 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    const port = (taken.address() as { port: number }).port;
    try {
      const exit = await runToExit(env({ PORT: String(port) }));
      expect(exit.code).toBe(1);
      expect(oneLine(exit.stderr)).toBe(
        `PORT=${port} is already in use on 127.0.0.1 (another Engram?): stop it or set PORT to a free port`,
      );
      expect(exit.stdout).toBe('');
    } finally {
      taken.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)('a privileged port without the privilege: one line, exit 1', async () => {
    const exit = await runToExit(env({ PORT: '80' }));
    expect(exit.code).toBe(1);
    expect(oneLine(exit.stderr)).toMatch(/^PORT=80 on 127\.0\.0\.1: permission denied .* set PORT to 1024 or above$/);
  });

  it('PORT=abc: one line with the variable, its value and the rule, exit 1', async () => {
    const exit = await runToExit(env({ PORT: 'abc' }));
    expect(exit.code).toBe(1);
    expect(oneLine(exit.stderr)).toBe('Invalid configuration: PORT=abc: must be a whole number from 0 to 65535');
  });

  it('a bad numeric limit names the variable, its value and the rule, exit 1', async () => {
    const exit = await runToExit(env({ PORT: '0', ENGRAM_MAX_COST: '-5' }));
    expect(exit.code).toBe(1);
    expect(oneLine(exit.stderr)).toBe('Invalid configuration: ENGRAM_MAX_COST=-5: must be a whole number, 1 or more');
  });
});

describe('describeListenError', () => {
  const address = { port: 80, host: '0.0.0.0' };
  const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('names the variable and the fix for each binding mistake, and leaves other errors alone', () => {
    expect(describeListenError(failure('EACCES'), address)?.message).toBe(
      'PORT=80 on 0.0.0.0: permission denied (ports below 1024 need privileges): set PORT to 1024 or above',
    );
    expect(describeListenError(failure('EADDRNOTAVAIL'), { port: 4000, host: '10.9.9.9' })?.message).toBe(
      'HOST=10.9.9.9: not an address of this machine: set HOST to one (e.g. 0.0.0.0)',
    );
    expect(describeListenError(failure('EMFILE'), address)).toBeNull();
  });
});
