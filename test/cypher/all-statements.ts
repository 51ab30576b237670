import * as associations from '../../src/store/neo4j/cypher/associations.js';
import * as edges from '../../src/store/neo4j/cypher/edges.js';
import * as imports from '../../src/store/neo4j/cypher/import.js';
import * as memories from '../../src/store/neo4j/cypher/memories.js';
import * as recall from '../../src/store/neo4j/cypher/recall.js';
import * as recallCues from '../../src/store/neo4j/cypher/recall-cues.js';
import * as researchViews from '../../src/store/neo4j/cypher/research-views.js';
import * as schema from '../../src/store/neo4j/cypher/schema.js';
import * as searchPages from '../../src/store/neo4j/cypher/search-pages.js';
import * as statement from '../../src/store/neo4j/cypher/statement.js';
import * as vectors from '../../src/store/neo4j/cypher/vectors.js';
import * as walks from '../../src/store/neo4j/cypher/walks.js';
import * as weights from '../../src/store/neo4j/cypher/weights.js';

/**
 * Every export of the Cypher modules, in one object: what the catalog, the linter and the plan
 * checks walk (statement.ts gives only its two exports the statements use; the rest are building
 * blocks). The store imports each module directly (no barrel); `CYPHER_MODULES` lets a test check
 * that a new module in src/store/neo4j/cypher/ is listed here.
 */
export const CYPHER_MODULES = [
  'associations',
  'edges',
  'import',
  'memories',
  'recall',
  'recall-cues',
  'research-views',
  'schema',
  'search-pages',
  'statement',
  'vectors',
  'walks',
  'weights',
] as const;

export const cypher = {
  ...associations,
  ...edges,
  ...imports,
  ...memories,
  ...recall,
  ...recallCues,
  ...researchViews,
  ...schema,
  ...searchPages,
  FULLTEXT_INDEX: statement.FULLTEXT_INDEX,
  relationshipType: statement.relationshipType,
  ...vectors,
  ...walks,
  ...weights,
};
