import { statement } from './statement.js';

/**
 * Association terms (domain/associations.ts): one `(:MemoryTerm {workspace, memoryId, term})` node
 * per term of a memory, with no relationship to anything, so no walk, neighbour list or export
 * ever meets one. Two indexes serve "the terms of a memory" and "the memories holding a term".
 */

/** Replaces the terms of each row's memory (`$rows`: {id, terms}, each memory once). */
export const REPLACE_TERMS = statement(
  'replaceTerms',
  `
  UNWIND $rows AS row
  CALL (row) {
    MATCH (old:MemoryTerm {workspace: $ws, memoryId: row.id})
    DELETE old
  }
  CALL (row) {
    UNWIND row.terms AS term
    CREATE (:MemoryTerm {workspace: $ws, memoryId: row.id, term: term})
  }
  RETURN count(row) AS replaced
  `,
);

/**
 * For each memory of `$ids` (position `at`), each of its terms (at most `$termsPerMemory`) with
 * the memories holding it, at most `$cap` of them (maxShared + 1: a list that long says "too common"
 * without reading the rest of a common term's holders).
 */
export const TERM_HOLDERS = statement(
  'termHolders',
  `
  UNWIND range(0, size($ids) - 1) AS at
  WITH at, $ids[at] AS memoryId
  CALL (memoryId) {
    MATCH (own:MemoryTerm {workspace: $ws, memoryId: memoryId})
    RETURN own.term AS term
    ORDER BY term
    LIMIT $termsPerMemory
  }
  CALL (term) {
    MATCH (held:MemoryTerm {workspace: $ws, term: term})
    WITH held LIMIT $cap
    RETURN collect(held.memoryId) AS holding
  }
  RETURN at, memoryId, term, holding
  ORDER BY at, term
  `,
);

/** The terms of each memory of `$ids` (at most `$termsPerMemory` each). */
export const TERMS_OF = statement(
  'termsOf',
  `
  UNWIND $ids AS memoryId
  CALL (memoryId) {
    MATCH (own:MemoryTerm {workspace: $ws, memoryId: memoryId})
    WITH own.term AS term
    ORDER BY term
    LIMIT $termsPerMemory
    RETURN collect(term) AS terms
  }
  RETURN memoryId, terms
  `,
);
