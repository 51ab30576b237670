import { badInput } from '../../domain/errors.js';
import type { GraphStore } from '../port.js';

/**
 * Vectors are refused on Neo4j in this version (docs/vectors.md, "Neo4j"): Neo4j keeps nothing to
 * refuse or find, so reads answer "no vector" and storing one names the store to use.
 */
export const NEO4J_VECTORS_REFUSED =
  'embeddings are stored only by the SQLite store in this version (ENGRAM_STORE=sqlite); see docs/vectors.md';

type VectorMethods = Pick<
  GraphStore,
  | 'embeddingDimensions'
  | 'setEmbeddings'
  | 'hasEmbeddings'
  | 'nearestMemories'
  | 'memoriesNeedingEmbedding'
  | 'workspacesNeedingEmbedding'
>;

export function createNeo4jVectors(): VectorMethods {
  return {
    async embeddingDimensions() {
      throw badInput('embedding', NEO4J_VECTORS_REFUSED);
    },
    async setEmbeddings() {
      throw badInput('embedding', NEO4J_VECTORS_REFUSED);
    },
    async hasEmbeddings(_workspace, memoryIds) {
      return memoryIds.map(() => false);
    },
    async nearestMemories() {
      return [];
    },
    async memoriesNeedingEmbedding() {
      return [];
    },
    async workspacesNeedingEmbedding() {
      return [];
    },
  };
}
