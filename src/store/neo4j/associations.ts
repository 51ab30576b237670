import { int } from 'neo4j-driver';
import { MAX_TERMS_PER_MEMORY, type TermCandidate, type TermSource } from '../../domain/associations.js';
import type { AssociationQuery, GraphStore } from '../port.js';
import { TERM_HOLDERS, TERMS_OF } from './cypher/associations.js';
import { type Neo4jRunner, rows } from './transactions.js';

/**
 * associationCandidates on Neo4j: two reads, the terms of the memories asked with their holders
 * (each term's list cut at maxShared + 1), then the terms of the candidates those lists name. The
 * budget is applied to what the first read returned, in the order asked, exactly as SQLite does.
 */
export function createNeo4jAssociations({ read }: Neo4jRunner): Pick<GraphStore, 'associationCandidates'> {
  return {
    async associationCandidates(ws, memoryIds, query: AssociationQuery) {
      if (memoryIds.length === 0) return { sources: [], candidates: [], truncated: false };
      const records = await read('associationCandidates', (tx) =>
        rows(tx, TERM_HOLDERS, {
          ws,
          ids: [...memoryIds],
          termsPerMemory: int(MAX_TERMS_PER_MEMORY),
          cap: int(query.maxShared + 1),
        }),
      );
      const sources: TermSource[] = [];
      const found = new Map<string, TermCandidate>();
      const asked = new Set(memoryIds);
      let left = query.budget;
      let truncated = false;
      let current = null as TermSource | null;
      for (const record of records) {
        const memoryId = record.get('memoryId') as string;
        if (current?.memoryId !== memoryId) {
          current = { memoryId, terms: [] };
          sources.push(current);
        }
        if (left <= 0) {
          truncated = true;
          break;
        }
        left--;
        const holding = record.get('holding') as string[];
        current.terms.push({ term: record.get('term') as string, holders: holding.length });
        if (holding.length < 2 || holding.length > query.maxShared) continue;
        for (const id of holding) {
          if (id === memoryId || found.has(id)) continue;
          if (left <= 0) {
            truncated = true;
            break;
          }
          left--;
          found.set(id, { memoryId: id, terms: [] });
        }
        if (truncated) break;
      }
      const unknown = [...found.keys()].filter((id) => !asked.has(id));
      if (unknown.length > 0) {
        const termRecords = await read('associationCandidates', (tx) =>
          rows(tx, TERMS_OF, { ws, ids: unknown, termsPerMemory: int(MAX_TERMS_PER_MEMORY) }),
        );
        for (const record of termRecords) {
          const candidate = found.get(record.get('memoryId') as string);
          if (candidate) candidate.terms = record.get('terms') as string[];
        }
      }
      for (const source of sources) {
        const candidate = found.get(source.memoryId);
        if (candidate) candidate.terms = source.terms.map((entry) => entry.term);
      }
      return { sources, candidates: [...found.values()], truncated };
    },
  };
}
