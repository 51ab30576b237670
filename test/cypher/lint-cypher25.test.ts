import { describe, expect, it } from 'vitest';
import { catalogEntries, declaredParameters, describeDiagnostics, lintCypher } from './statement-checks.js';

/**
 * Every catalog statement linted as Cypher 25, so a database whose default language is Cypher 25
 * runs them too. The Cypher front end takes about a second per long statement, so this pass runs in
 * `npm run test:full` (which CI runs) and lint.test.ts's Cypher 5 pass in every `npm test`.
 */
const RUN = process.env.ENGRAM_FULL_TESTS === 'true';

if (RUN) {
  describe('every catalog statement as CYPHER 25', () => {
    it.each(catalogEntries())('$label parses and lints with no diagnostics', ({ text }) => {
      const diagnostics = lintCypher(text, declaredParameters(text), 'CYPHER 25');
      expect(describeDiagnostics(diagnostics)).toEqual([]);
    });
  });
} else {
  describe('every catalog statement as CYPHER 25', () => {
    it.skip('runs in npm run test:full', () => {});
  });
}
