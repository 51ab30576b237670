import { conflict } from '../../domain/errors.js';
import { checkMergedMetadata, mergeMetadata } from '../../domain/metadata.js';
import type { NewMemory } from '../../domain/types.js';
import { linkWeightChange } from '../../domain/weights.js';
import type { GraphStore, ImportEdge } from '../port.js';
import { UNBOUNDED } from '../shared/applied-weight-change.js';
import {
  BATCH_ITEM_TAKEN,
  EDGE_ID_TAKEN,
  EVENT_ID_TAKEN,
  ID_TAKEN,
  KEY_TAKEN,
  missingEndpoint,
  missingImportEndpoint,
  missingMemory,
} from '../shared/store-errors.js';
import { REPLACE_TERMS } from './cypher/associations.js';
import { LINK_CONFIRM, LINK_PREPARE, linkCreate, unlinkEdge } from './cypher/edges.js';
import { IMPORT_MEMORIES, importEdges } from './cypher/import.js';
import { CREATE_MEMORY, DELETE_MEMORY, UPDATE_MEMORY } from './cypher/memories.js';
import { isConstraintConflict } from './errors.js';
import { memoryParameters, patchParameters } from './parameters.js';
import type { Neo4jReads } from './reads.js';
import { edgeOf, encodeJson, toEdge, toMemory, toNumber } from './records.js';
import { first, type Neo4jRunner, rows } from './transactions.js';
import { applyChanges, replayedChanges } from './weights.js';

/** REPLACE_TERMS rows for the memories that carry terms; a memory named twice keeps its last terms. */
function termRows(memories: readonly NewMemory[]): { id: string; terms: string[] }[] {
  const last = new Map<string, string[]>();
  for (const memory of memories) if (memory.terms) last.set(memory.id, [...memory.terms]);
  return [...last].map(([id, terms]) => ({ id, terms }));
}

export type Neo4jWrites = Pick<
  GraphStore,
  'createMemory' | 'updateMemory' | 'deleteMemory' | 'linkEdge' | 'unlinkEdges' | 'applyWeightChanges' | 'importBatch'
>;

/**
 * The writes. A managed transaction is re-run when its reply is lost, so a write may meet what its
 * own earlier attempt committed: each write below tells that apart from a real conflict.
 */
export function createNeo4jWrites({ transaction }: Neo4jRunner, reads: Neo4jReads): Neo4jWrites {
  return {
    async createMemory(ws, memory, now) {
      try {
        const record = await transaction('WRITE', 'createMemory', async (tx) => {
          const created = await first(tx, CREATE_MEMORY, { ws, ...memoryParameters(memory), now });
          if (created && memory.terms) await rows(tx, REPLACE_TERMS, { ws, rows: termRows([memory]) });
          return created;
        });
        if (!record) throw new Error('Neo4j store: CREATE returned no row');
        return toMemory(record.get('memory'));
      } catch (error) {
        if (!isConstraintConflict(error)) throw error;
        // Which constraint said no, and was it this very call, committed by an attempt whose reply was lost?
        const [existing] = await reads.getMemories(ws, [memory.id]);
        if (existing && existing.id === memory.id) {
          const { terms: _terms, ...fields } = memory;
          if (JSON.stringify(existing) === JSON.stringify({ ...fields, createdAt: now, updatedAt: now }))
            return existing;
          throw conflict(ID_TAKEN);
        }
        throw conflict(KEY_TAKEN);
      }
    },

    async updateMemory(ws, id, patch, now) {
      const record = await transaction(
        'WRITE',
        'updateMemory',
        (tx) =>
          first(tx, UPDATE_MEMORY, {
            ws,
            id,
            changes: patchParameters(patch),
            now,
            terms: patch.terms ? [...patch.terms] : null,
            replaceTags: Boolean(patch.tags),
          }),
        KEY_TAKEN,
      );
      return record ? toMemory(record.get('memory')) : null;
    },

    async deleteMemory(ws, id) {
      const record = await transaction('WRITE', 'deleteMemory', (tx) => first(tx, DELETE_MEMORY, { ws, id }));
      return record ? { edgesRemoved: toNumber(record.get('edgesRemoved'), 'edgesRemoved') } : null;
    },

    async linkEdge(ws, link, now) {
      return transaction(
        'WRITE',
        'linkEdge',
        async (tx) => {
          const ends = { ws, fromId: link.fromId, toId: link.toId };
          const found = await first(tx, LINK_PREPARE, { ...ends, type: link.type });
          if (found?.get('fromFound') !== true) throw missingMemory(link.fromId);
          if (found.get('toFound') !== true) throw missingMemory(link.toId);
          const stored = found.get('edge');
          if (stored === null || stored === undefined) {
            const created = await first(tx, linkCreate(link.type), {
              ...ends,
              type: link.type,
              id: link.id,
              weight: link.weight ?? link.defaultWeight,
              metadata: encodeJson(link.metadata),
              now,
            });
            if (!created) throw missingEndpoint();
            const edge = edgeOf(created);
            // A reason is kept as an event in this transaction: the edge never exists without it.
            const noted = linkWeightChange(link, edge, true);
            const [applied] = noted ? await applyChanges(tx, ws, [noted], UNBOUNDED, now) : [];
            return { edge: applied?.edge ?? edge, created: true };
          }
          const existing = toEdge(stored, link.fromId, link.toId);
          // A retry of a create that did commit (its reply was lost) finds its own edge, and its
          // event with it: report it as created.
          if (existing.id === link.id) return { edge: existing, created: true };
          const confirmed = await first(tx, LINK_CONFIRM, {
            ...ends,
            edgeId: existing.id,
            metadata: encodeJson(checkMergedMetadata(mergeMetadata(existing.metadata, link.metadata))),
            now,
          });
          const weightChange = linkWeightChange(link, existing, false);
          const [applied] = weightChange ? await applyChanges(tx, ws, [weightChange], UNBOUNDED, now) : [];
          return { edge: applied?.edge ?? (confirmed ? edgeOf(confirmed) : existing), created: false };
        },
        EDGE_ID_TAKEN,
      );
    },

    async unlinkEdges(ws, selector) {
      const [text, parameters] =
        'id' in selector
          ? [unlinkEdge('id'), { ws, id: selector.id }]
          : [unlinkEdge('triple'), { ws, fromId: selector.fromId, toId: selector.toId, type: selector.type }];
      const records = await transaction('WRITE', 'unlinkEdges', (tx) => rows(tx, text, parameters));
      return records.map((record) =>
        toEdge(record.get('props'), record.get('fromId'), record.get('toId'), record.get('relType')),
      );
    },

    async applyWeightChanges(ws, changes, bounds, now) {
      if (changes.length === 0) return [];
      try {
        return await transaction('WRITE', 'applyWeightChanges', (tx) => applyChanges(tx, ws, changes, bounds, now));
      } catch (error) {
        if (!isConstraintConflict(error)) throw error;
        // The event ids are the caller's: if every event exists for these very targets, an earlier
        // attempt committed and only its reply was lost. Answer from what it stored.
        const replay = await replayedChanges(reads, ws, changes);
        if (replay) return replay;
        throw conflict(EVENT_ID_TAKEN);
      }
    },

    async importBatch(ws, batch, now) {
      const byType = new Map<string, ImportEdge[]>();
      for (const edge of batch.edges) {
        const group = byType.get(edge.type);
        if (group) group.push(edge);
        else byType.set(edge.type, [edge]);
      }
      return transaction(
        'WRITE',
        'importBatch',
        async (tx) => {
          if (batch.memories.length > 0) {
            await rows(tx, IMPORT_MEMORIES, { ws, memories: batch.memories.map(memoryParameters), now });
            const withTerms = termRows(batch.memories);
            if (withTerms.length > 0) await rows(tx, REPLACE_TERMS, { ws, rows: withTerms });
          }
          for (const [type, edges] of byType) {
            const record = await first(tx, importEdges(type), {
              ws,
              type,
              edges: edges.map((edge) => ({
                id: edge.id,
                fromId: edge.fromId,
                toId: edge.toId,
                weight: edge.weight,
                metadata: encodeJson(edge.metadata),
              })),
              now,
            });
            if (toNumber(record?.get('upserted') ?? 0, 'upserted') < edges.length) throw missingImportEndpoint();
          }
          return { memories: batch.memories.length, edges: batch.edges.length };
        },
        BATCH_ITEM_TAKEN,
      );
    },
  };
}
