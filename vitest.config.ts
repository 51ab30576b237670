import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const require = createRequire(import.meta.url);

/**
 * Files that take tens of seconds, longest first. Vitest orders by the durations it cached from the
 * last run, but a fresh clone (CI) has no cache and would order by file size, which can leave a
 * one-minute file to run alone at the end. A renamed file only loses its head start.
 */
const SLOW_FIRST = [
  'test/cypher/lint.test.ts',
  'test/hardening/admission.test.ts',
  'test/hardening/shutdown.test.ts',
  'test/hardening/bad-input.test.ts',
  'test/hardening/workspace-growth.test.ts',
  'test/cli/import-export.test.ts',
  'test/browser/explorer.test.ts',
  'test/mcp/server-memory-file.test.ts',
  'test/contract/sqlite.contract.test.ts',
  'test/mcp/server-memory-profile.test.ts',
  'test/cli/bulk-import.test.ts',
  'test/durability/kill9.test.ts',
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return index < 0 ? SLOW_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    // graphql ships both ESM (.mjs) and CJS builds; Pothos and armor reach it through CJS, so
    // tests must use the same copy or graphql-js rejects types "from another realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/build-for-processes.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Test files run in child processes (forks), not worker threads: better-sqlite3 and the child
    // servers tests start behave as in production. A fork runs file after file with one module
    // cache: the app's modules (graphql-yoga, Pothos, the schema) load once per fork, not once per
    // file, which took the suite's module loading from 196 s to 20 s of its 2-core run. Each file
    // closes what it opens. The live Neo4j suite keeps a fresh process per file.
    pool: 'forks',
    isolate: Boolean(process.env.NEO4J_URI),
    // Vitest's default is one file fewer than the cores: on a 2-core machine, one file at a time,
    // while many files mostly wait on the processes they start. The live Neo4j suite keeps one
    // file at a time: its files share one server.
    maxWorkers: process.env.NEO4J_URI ? 1 : Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
  },
});
