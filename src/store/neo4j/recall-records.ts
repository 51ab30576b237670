import { int } from 'neo4j-driver';
import type { GraphStore, RecallRecord } from '../port.js';
import { CREATE_RECALL, GET_RECALL, LIST_RECALLS, LIST_RECALLS_AFTER, PURGE_RECALLS } from './cypher/recall.js';
import type { RecordLike } from './driver.js';
import { first, type Neo4jRunner, rows } from './transactions.js';

/** Expired records a save deletes at most: the purge's cost is fixed whatever has piled up. */
const PURGE_PER_SAVE = 100;

function toRecord(record: RecordLike): RecallRecord {
  const value = record.get('recall') as Record<string, unknown>;
  return {
    id: value.id as string,
    query: (value.query as string | null | undefined) ?? null,
    results: JSON.parse(value.results as string) as RecallRecord['results'],
    truncated: value.truncated === true,
    createdAt: value.createdAt as string,
    expiresAt: value.expiresAt as string,
  };
}

/** Recall records as :Recall nodes (cypher/recall.ts). */
export function createNeo4jRecallRecords({
  transaction,
  read,
}: Neo4jRunner): Pick<GraphStore, 'saveRecall' | 'getRecall' | 'listRecalls'> {
  return {
    async saveRecall(ws, record, now) {
      // Both statements go out together (the driver pipelines them in order): one round trip, not two.
      await transaction('WRITE', 'saveRecall', (tx) =>
        Promise.all([
          tx.run(PURGE_RECALLS, { ws, now, limit: int(PURGE_PER_SAVE) }),
          tx.run(CREATE_RECALL, {
            ws,
            id: record.id,
            query: record.query,
            results: JSON.stringify(record.results),
            truncated: record.truncated,
            createdAt: record.createdAt,
            expiresAt: record.expiresAt,
          }),
        ]),
      );
    },

    async getRecall(ws, id, now) {
      const found = await read('getRecall', (tx) => first(tx, GET_RECALL, { ws, id, now }));
      return found ? toRecord(found) : null;
    },

    async listRecalls(ws, { limit, now, after }) {
      const found = await read('listRecalls', (tx) =>
        after
          ? rows(tx, LIST_RECALLS_AFTER, {
              ws,
              now,
              afterCreatedAt: after.createdAt,
              afterId: after.id,
              limit: int(limit),
            })
          : rows(tx, LIST_RECALLS, { ws, now, limit: int(limit) }),
      );
      return found.map(toRecord);
    },
  };
}
