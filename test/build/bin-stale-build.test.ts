import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * The other tests run bin/engram.js beside a current build (the global setup keeps dist/ current),
 * so this one proves its other branch: in a checkout whose dist/ is older than its sources, the bin
 * runs the sources through tsx, never the stale build.
 */
describe('engram (bin/engram.js) beside a stale build', () => {
  let checkout: string;

  beforeAll(() => {
    checkout = mkdtempSync(join(tmpdir(), 'engram-stale-bin-'));
    // Copies, not links, of what finds the build from its own location (Node runs a linked module
    // from its real path, which would be this checkout's own current build).
    for (const path of ['bin', 'scripts']) cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
    for (const path of ['src', 'web', 'schema', 'node_modules', 'package.json', 'tsconfig.json'])
      symlinkSync(join(ROOT, path), join(checkout, path));
    writeFileSync(join(checkout, 'package-lock.json'), '{}\n');
    // A complete build record whose fingerprint is not the sources': what an edit after a build leaves.
    mkdirSync(join(checkout, 'dist/cli'), { recursive: true });
    writeFileSync(join(checkout, 'dist/build-info.json'), '{ "fingerprint": "older" }\n');
    writeFileSync(
      join(checkout, 'dist/cli/main.js'),
      "export async function main() { process.stdout.write('the stale build ran\\n'); }\n",
    );
  });
  afterAll(() => rmSync(checkout, { recursive: true, force: true }));

  it('runs the sources, not the stale build', async () => {
    const { stdout } = await run(process.execPath, [join(checkout, 'bin/engram.js'), '--help'], { cwd: checkout });
    expect(stdout).not.toContain('the stale build ran');
    for (const command of ['serve', 'mcp', 'import', 'export'])
      expect(stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });
});
