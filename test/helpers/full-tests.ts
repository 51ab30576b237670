/**
 * The full-size hardening runs (10,000 workspaces, 20 kill -9 trials, 25 property runs, the Cypher
 * 25 lint pass): set by `npm run test:full`, which CI runs after `npm test`.
 */
export const FULL_TESTS = process.env.ENGRAM_FULL_TESTS === 'true';
