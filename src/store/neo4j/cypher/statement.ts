import { badInput } from '../../../domain/errors.js';
import { RELATION_TYPE_PATTERN } from '../../../domain/relations.js';
import type { Direction } from '../../../domain/types.js';

/**
 * Every Cypher statement the Neo4j store sends, and nothing else.
 *
 * Rules that keep user text out of statement text:
 * - every value (ids, keys, titles, metadata, search text, weights, limits) is a `$parameter`;
 * - the only variable parts of a statement are chosen from fixed fragments here (a direction
 *   arrow, which filters a listing applies) or are relation types, which pass
 *   `relationshipType()` (the UPPER_SNAKE rule) and are then backtick-quoted. Cypher cannot take a
 *   relationship type as a parameter when it creates a relationship, so this is the one splice.
 * - each statement starts with `// engram:<name>`, which names it in query logs and
 *   `SHOW TRANSACTIONS`.
 *
 * Graph model (one Neo4j database may hold many workspaces):
 * - `(:Memory {workspace, id, key?, title, content?, kind?, tags, tagsText, weight, metadata?, createdAt, updatedAt})`;
 *   `tagsText` is the tags joined by spaces, for the full-text index; `metadata` is a JSON string.
 * - an edge is a native relationship `(from:Memory)-[:CAUSED_BY {id, weight, metadata?, createdAt,
 *   updatedAt, lastConfirmedAt?}]->(to:Memory)`.
 * - `(:EdgeRef {workspace, id, fromId, toId, type, negWeight})` is the relationship id index. Neo4j indexes
 *   relationship properties per relationship type only, and the vocabulary is open, so a lookup
 *   by edge id across all types would scan every relationship. An EdgeRef per edge, under two
 *   uniqueness constraints ((workspace, id) and (workspace, fromId, toId, type)), turns it into an
 *   index seek plus an expand between the two endpoints, and makes a duplicate edge impossible at
 *   the database level. Every statement that creates or deletes an edge does the same to its EdgeRef,
 *   and every statement that sets an edge's weight sets its EdgeRef's `negWeight` to minus that
 *   weight: indexes on (workspace, fromId|toId, [type,] negWeight, id) hold each memory's edges in
 *   page order (adjacentEdges, walks.ts).
 * - `(:WeightEvent {workspace, id, at, source, edgeId?, memoryId?, oldWeight, newWeight, delta, reason?, revertedBy?})`.
 * - `(:Recall {workspace, id, query?, results, truncated, createdAt, expiresAt})`: a recall record, `results` a JSON string.
 * - `(:MemoryVector {workspace, memoryId, embedding_d<N>})` and `(:VectorSpace {workspace, dims})`: vectors (vectors.ts).
 * - `(:MemoryTerm {workspace, memoryId, term})`: association terms, derived from the text (associations.ts).
 * - `(:MemoryTag {workspace, tag, createdAt, memoryId})`: the tag index, one per tag of a memory (memories.ts).
 * - Timestamps are the ISO-8601 strings the domain passes in, stored and returned unchanged.
 */

/** The building blocks every statement file shares, and the rules they keep (above). */

/**
 * The full-text index: title, content and tags, and the workspace, which every search requires
 * (search-query.ts, inWorkspace) so Lucene reads only that workspace's matches.
 */
export const FULLTEXT_INDEX = 'engram_memory_text_by_workspace';

/** The one place a relation type enters statement text: validated, then backtick-quoted. */
export function relationshipType(type: string): string {
  if (!RELATION_TYPE_PATTERN.test(type)) {
    throw badInput('type', 'must be UPPER_SNAKE_CASE: a letter, then letters, digits or _, at most 64 characters');
  }
  return `\`${type}\``;
}

function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(
    ...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return lines.map((line) => line.slice(indent)).join('\n');
}

export const statement = (name: string, body: string): string => `// engram:${name}\n${dedent(body)}`;

/** `(m)-[r]->(other)` and friends: the arrow is the only part that depends on the direction. */
export function hop(direction: Direction, from: string, rel: string, to: string): string {
  switch (direction) {
    case 'OUTGOING':
      return `(${from})-[${rel}]->(${to})`;
    case 'INCOMING':
      return `(${from})<-[${rel}]-(${to})`;
    case 'BOTH':
      return `(${from})-[${rel}]-(${to})`;
    default:
      throw badInput('direction', 'must be OUTGOING, INCOMING or BOTH');
  }
}

/** Locks two memories in id order (fewer deadlocks between link(a, b) and link(b, a)); see linkPrepare. */
export const LOCK_ENDPOINTS =
  'FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._engramLock = true REMOVE n._engramLock)';

/**
 * Follows a SET that may have changed `m`'s title or content, with the values from before it bound
 * as `oldTitle` and `oldContent`: a memory whose text changed (or that is new) loses its vector and
 * joins the embedding queue (vectors.ts), in the same statement. Carries `m` on. Its lines are
 * indented for a statement body at two spaces, as updateMemory's and importMemories' are.
 */
export const REQUEUE_IF_TEXT_CHANGED = `WITH m, coalesce(m.title = oldTitle AND (m.content = oldContent OR (m.content IS NULL AND oldContent IS NULL)), false) AS sameText
  SET m.embeddingQueue = CASE WHEN sameText THEN m.embeddingQueue ELSE $now + ' ' + m.id END
  WITH m, sameText
  OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: m.id})
  WHERE NOT sameText
  DELETE v`;
