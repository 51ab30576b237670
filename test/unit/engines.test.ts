import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` warns EBADENGINE for every installed package whose `engines.node` refuses the running
 * Node. The lockfile records each package's engines, so the promise "no engine warnings on the Node
 * lines we support" is checked here for each line, not only for the Node this test runs on.
 */
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

/** The oldest release of each line that every installed package accepts (vitest's and codegen's tooling set the floor). */
const SUPPORTED = ['20.19.0', '22.13.0', '24.0.0', process.versions.node];

function refusals(version: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!path || !range) return [];
    return semver.satisfies(version, range, { includePrerelease: true }) ? [] : [`${path} wants node ${range}`];
  });
}

describe('supported Node versions', () => {
  it.each(SUPPORTED)('installs on Node %s without an engine warning', (version) => {
    expect(refusals(version)).toEqual([]);
  });

  it('promises in package.json what the lockfile allows', () => {
    for (const version of SUPPORTED) expect(semver.satisfies(version, manifest.engines.node), version).toBe(true);
  });

  it('would catch a package that refuses a line (the check is live)', () => {
    expect(refusals('18.0.0').length).toBeGreaterThan(0);
  });
});
