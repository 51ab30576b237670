import { int } from 'neo4j-driver';
import type { GraphStore, RecallCue } from '../port.js';
import {
  CREATE_RECALL_CUE,
  DELETE_RECALL_CUE,
  DELETE_SAME_RECALL_CUE,
  FIND_RECALL_CUES,
  TRIM_RECALL_CUES,
} from './cypher/recall-cues.js';
import { toNumber } from './records.js';
import { type Neo4jRunner, rows } from './transactions.js';

/** Recall cues as :RecallCue nodes (cypher/recall-cues.ts). */
export function createNeo4jRecallCues({
  transaction,
  read,
}: Neo4jRunner): Pick<GraphStore, 'saveRecallCue' | 'deleteRecallCue' | 'findRecallCues'> {
  return {
    async saveRecallCue(ws, cue, keepPerMemory) {
      const same = { ws, memoryId: cue.memoryId, names: cue.names, terms: cue.terms };
      // In one transaction, sent together: the driver pipelines them and Neo4j runs them in order.
      await transaction('WRITE', 'saveRecallCue', (tx) =>
        Promise.all([
          tx.run(DELETE_SAME_RECALL_CUE, same),
          tx.run(CREATE_RECALL_CUE, {
            ...same,
            id: cue.id,
            edgeId: cue.edgeId,
            keys: cue.keys,
            createdAt: cue.createdAt,
          }),
          tx.run(TRIM_RECALL_CUES, { ws, memoryId: cue.memoryId, keep: int(keepPerMemory) }),
        ]),
      );
    },

    async deleteRecallCue(ws, id) {
      await transaction('WRITE', 'deleteRecallCue', (tx) => rows(tx, DELETE_RECALL_CUE, { ws, id }));
    },

    async findRecallCues(ws, keys, perKey) {
      if (keys.length === 0) return [];
      const found = await read('findRecallCues', (tx) => rows(tx, FIND_RECALL_CUES, { ws, keys, perKey: int(perKey) }));
      return found.map(
        (record): RecallCue => ({
          id: record.get('id') as string,
          memoryId: record.get('memoryId') as string,
          edgeId: record.get('edgeId') as string,
          edgeWeight: toNumber(record.get('edgeWeight'), 'cue.edgeWeight'),
          names: record.get('names') as string[],
          terms: record.get('terms') as string[],
          createdAt: record.get('createdAt') as string,
        }),
      );
    },
  };
}
