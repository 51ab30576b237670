import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FULL_TESTS } from '../helpers/full-tests.js';
import { CYPHER_MODULES, cypher } from './all-statements.js';
import {
  CATALOG,
  catalogEntries,
  catalogSample,
  describeCatalogLint,
  describeDiagnostics,
  lintCypher,
  NOT_STATEMENTS,
} from './statement-checks.js';

const entries = catalogEntries();

describe('the statement catalog', () => {
  it('lists every statement cypher/ exports', () => {
    const exported = Object.keys(cypher)
      .filter((name) => !NOT_STATEMENTS.includes(name))
      .sort();
    expect(Object.keys(CATALOG).sort()).toEqual(exported);
  });

  it('gathers every module of src/store/neo4j/cypher/', () => {
    const files = readdirSync(new URL('../../src/store/neo4j/cypher/', import.meta.url))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -'.ts'.length))
      .sort();
    expect([...CYPHER_MODULES].sort()).toEqual(files);
  });

  it('names every statement on its first line', () => {
    for (const { text } of entries) expect(text).toMatch(/^\/\/ engram:[A-Za-z]+(:[A-Za-z_+]+)?\n/);
  });
});

describe('the linter is live (so a clean result means something)', () => {
  it.each([
    ['a syntax error', '// engram:x\nMATCH (n RETURN n', /Invalid input/],
    ['an undefined variable', '// engram:x\nMATCH (n:Memory) RETURN m', /Variable `m` not defined/],
    ['a type error', '// engram:x\nMATCH (n:Memory) RETURN n.weight + "a" - 3 AS x', /Type mismatch/],
    [
      'an unknown procedure',
      "// engram:x\nCALL db.index.fulltext.queryNodez('i', 'q') YIELD node RETURN node",
      /not present in the database/,
    ],
    [
      'an undeclared parameter',
      '// engram:x\nMATCH (n:Memory {id: $nope}) RETURN n',
      /Parameter \$nope is not defined/,
    ],
    [
      'an aggregation mixed into a grouping key',
      '// engram:x\nMATCH (n:Memory) RETURN n.id, count(n) + n.weight AS x',
      /aggregat/i,
    ],
  ])('reports %s', (_label, text, message) => {
    const diagnostics = lintCypher(text, {});
    expect(
      diagnostics.some((d) => d.severity === 1 && message.test(d.message)),
      describeDiagnostics(diagnostics).join('\n'),
    ).toBe(true);
  });

  it('flags the pre-5.23 CALL subquery form as deprecated in Cypher 5 (the store uses CALL (x) { ... })', () => {
    const diagnostics = lintCypher('// engram:x\nUNWIND [1] AS x CALL { WITH x RETURN x AS y } RETURN y', {});
    expect(describeDiagnostics(diagnostics).join('\n')).toMatch(/deprecated/);
  });
});

// Every variant in npm run test:full, and as Cypher 25 too (a database whose default language is
// Cypher 25): lint-cypher25.test.ts.
if (FULL_TESTS) describeCatalogLint('CYPHER 5');
else describeCatalogLint('CYPHER 5', catalogSample(), 'the longest variant of every catalog statement as CYPHER 5');
