import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships both ESM (.mjs) and CJS builds; Pothos and armor reach it through CJS, so
    // tests must use the same copy or graphql-js rejects types "from another realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each file gets its own process: SQLite handles and child servers never leak between files.
    pool: 'forks',
  },
});
