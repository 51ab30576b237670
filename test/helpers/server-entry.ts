/**
 * What a test runs as the server process, from the repository root: the compiled server as
 * `npm start` runs it, kept current with the sources by build-for-processes.ts (vitest's global
 * setup), so what starts is always the code under test.
 */
export const SERVER_ENTRY = ['dist/server.js'];
