import { describe, it } from 'vitest';
import { FULL_TESTS } from '../helpers/full-tests.js';
import { describeCatalogLint } from './statement-checks.js';

/**
 * Every catalog statement linted as Cypher 25, so a database whose default language is Cypher 25
 * runs them too. The Cypher front end takes about a second per long statement, so this pass runs in
 * `npm run test:full` (which CI runs), with lint.test.ts's Cypher 5 pass over every variant.
 */
if (FULL_TESTS) describeCatalogLint('CYPHER 25');
else {
  describe('every catalog statement as CYPHER 25', () => {
    it.skip('runs in npm run test:full', () => {});
  });
}
