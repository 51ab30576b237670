import type { TermCandidate, TermSource } from '../../domain/associations.js';
import type { AssociationQuery, GraphStore } from '../port.js';
import type { StoreContext } from './store-context.js';

/**
 * Association terms (domain/associations.ts) on SQLite: `memory_terms` keeps each memory's terms
 * as one JSON text (what a rewrite or a deletion must take out again), `term_postings` one row per
 * (term, memory), keyed for "who holds this term". A trigger on memories removes both with the
 * memory, so every way of deleting one (deleteMemory, a hub's chunked delete) keeps them in step.
 */
export interface TermWriter {
  /** Replaces a memory's terms; `known` false skips reading old ones (a memory this transaction created). */
  replace(ws: string, memoryId: string, terms: readonly string[], known: boolean): void;
}

export function createTermWriter(ctx: StoreContext): TermWriter {
  const { sql } = ctx;
  return {
    replace(ws, memoryId, terms, known) {
      if (known) {
        const old = sql(`SELECT terms FROM memory_terms WHERE workspace = ? AND memory_id = ?`).get(ws, memoryId) as
          | { terms: string }
          | undefined;
        if (old) {
          const drop = sql(`DELETE FROM term_postings WHERE workspace = ? AND term = ? AND memory_id = ?`);
          for (const term of JSON.parse(old.terms) as string[]) drop.run(ws, term, memoryId);
        }
      }
      if (terms.length === 0) {
        if (known) sql(`DELETE FROM memory_terms WHERE workspace = ? AND memory_id = ?`).run(ws, memoryId);
        return;
      }
      sql(`INSERT OR REPLACE INTO memory_terms (workspace, memory_id, terms) VALUES (?, ?, ?)`).run(
        ws,
        memoryId,
        JSON.stringify(terms),
      );
      const add = sql(`INSERT OR IGNORE INTO term_postings (workspace, term, memory_id) VALUES (?, ?, ?)`);
      for (const term of terms) add.run(ws, term, memoryId);
    },
  };
}

/** About how many (workspace, term) holder counts an associations store remembers. */
const KNOWN_TERMS = 16_384;

export function createAssociationCandidates(ctx: StoreContext): Pick<GraphStore, 'associationCandidates'> {
  const { sql } = ctx;
  // A recall counts the holders of each term of its ten most active memories: about 150 counts of
  // up to maxShared + 1 index steps. Postings change only with a memory's text (written in the same
  // transaction, by any process), so each count is kept until textGeneration moves.
  const knownHolders = new Map<string, number>();
  let knownAt = -1;
  const forgetIfChanged = (): void => {
    const generation = ctx.textGeneration();
    if (generation !== knownAt || knownHolders.size >= KNOWN_TERMS) {
      knownHolders.clear();
      knownAt = generation;
    }
  };
  return {
    async associationCandidates(ws, memoryIds, query: AssociationQuery) {
      const termsOf = sql(`SELECT terms FROM memory_terms WHERE workspace = ? AND memory_id = ?`);
      // The count stops at maxShared + 1 inside SQLite: a common term costs that many index steps
      // and no row handed to JavaScript.
      const holdersOf = sql(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM term_postings WHERE workspace = ? AND term = ? LIMIT ?)`,
      );
      const holdingIds = sql(`SELECT memory_id AS id FROM term_postings WHERE workspace = ? AND term = ? LIMIT ?`);
      const sources: TermSource[] = [];
      const candidates = new Map<string, TermCandidate>();
      const asked = new Set(memoryIds);
      let left = query.budget;
      forgetIfChanged();
      const answer = (truncated: boolean) => ({ sources, candidates: [...candidates.values()], truncated });
      for (const memoryId of memoryIds) {
        const row = termsOf.get(ws, memoryId) as { terms: string } | undefined;
        if (!row) continue;
        const source: TermSource = { memoryId, terms: [] };
        sources.push(source);
        for (const term of JSON.parse(row.terms) as string[]) {
          if (left <= 0) return answer(true);
          left--;
          const known = `${query.maxShared}\u0000${ws}\u0000${term}`;
          let holders = knownHolders.get(known);
          if (holders === undefined) {
            holders = (holdersOf.get(ws, term, query.maxShared + 1) as { n: number }).n;
            knownHolders.set(known, holders);
          }
          source.terms.push({ term, holders });
          if (holders < 2 || holders > query.maxShared) continue;
          for (const { id } of holdingIds.all(ws, term, query.maxShared) as { id: string }[]) {
            if (id === memoryId || candidates.has(id)) continue;
            if (left <= 0) return answer(true);
            left--;
            const terms = asked.has(id) ? null : (termsOf.get(ws, id) as { terms: string } | undefined);
            candidates.set(id, { memoryId: id, terms: terms ? (JSON.parse(terms.terms) as string[]) : [] });
          }
        }
      }
      // A candidate that is itself a source has its terms from its own row.
      for (const source of sources) {
        const candidate = candidates.get(source.memoryId);
        if (candidate) candidate.terms = source.terms.map((entry) => entry.term);
      }
      return answer(false);
    },
  };
}
