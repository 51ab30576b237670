import { build, isBuildCurrent } from '../../scripts/build.mjs';

/**
 * Vitest global setup: makes dist/ a build of the sources as they are now (`npm start`'s
 * `--if-stale`), before any test file runs. The servers the tests start run it (SERVER_ENTRY), and
 * bin/engram.js picks it up by itself: a compiled server starts in about half the time of one
 * compiled on the fly by tsx, and the suite starts dozens. The code is the same either way (esbuild
 * transpiles both); test/build/ proves the build itself.
 */
export default async function buildForProcesses(): Promise<void> {
  if (!(await isBuildCurrent())) await build();
}
