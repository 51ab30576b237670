import { int } from 'neo4j-driver';
import type { GraphStore } from '../port.js';
import { CREATE_SEARCH_PAGES, GET_SEARCH_PAGES, PURGE_SEARCH_PAGES } from './cypher/search-pages.js';
import { first, type Neo4jRunner } from './transactions.js';

/** Expired entries a save deletes at most: the purge's cost is fixed whatever has piled up. */
const PURGE_PER_SAVE = 100;

/** Saved search orders as :SearchPages nodes (cypher/search-pages.ts). */
export function createNeo4jSearchPages({
  transaction,
  read,
}: Neo4jRunner): Pick<GraphStore, 'saveSearchPages' | 'getSearchPages'> {
  return {
    async saveSearchPages(ws, pages, now) {
      // Both statements go out together (the driver pipelines them in order): one round trip.
      await transaction('WRITE', 'saveSearchPages', (tx) =>
        Promise.all([
          tx.run(PURGE_SEARCH_PAGES, { ws, now, limit: int(PURGE_PER_SAVE) }),
          tx.run(CREATE_SEARCH_PAGES, {
            ws,
            id: pages.id,
            memoryIds: pages.memoryIds,
            createdAt: pages.createdAt,
            expiresAt: pages.expiresAt,
          }),
        ]),
      );
    },

    async getSearchPages(ws, id, now) {
      const found = await read('getSearchPages', (tx) => first(tx, GET_SEARCH_PAGES, { ws, id, now }));
      return found ? (found.get('memoryIds') as string[]) : null;
    },
  };
}
