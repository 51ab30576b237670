import { describe, it } from 'vitest';
import { neo4jHarness } from './neo4j-harness.js';
import { runAdjacencyContract, runStoreContract } from './run-contract.js';

/**
 * The shared contract suite against a real Neo4j 5 / Aura, when NEO4J_URI is set (with NEO4J_USER,
 * NEO4J_PASSWORD, NEO4J_DATABASE as for the server); `npm run test:neo4j` starts a server and sets them.
 */
if (process.env.NEO4J_URI) {
  runStoreContract('neo4j', neo4jHarness());
  // Contract graphs are small, so the store expands them; here every memory is read from the EdgeRef indexes.
  runAdjacencyContract('neo4j, every memory from the EdgeRef indexes', neo4jHarness({ expandPerRow: 0 }));
} else {
  console.warn('SKIPPED: Neo4j contract suite (set NEO4J_URI to run it against a real Neo4j 5)');
  describe('GraphStore contract: neo4j', () => {
    it.skip('runs the shared contract suite against a real Neo4j 5 when NEO4J_URI is set', () => {});
  });
}
