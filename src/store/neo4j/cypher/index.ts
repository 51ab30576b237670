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
 * - `(:EdgeRef {workspace, id, fromId, toId, type})` is the relationship id index. Neo4j indexes
 *   relationship properties per relationship type only, and the vocabulary is open, so a lookup
 *   by edge id across all types would scan every relationship. An EdgeRef per edge, under two
 *   uniqueness constraints ((workspace, id) and (workspace, fromId, toId, type)), turns it into an
 *   index seek plus an expand between the two endpoints, and makes a duplicate edge impossible at
 *   the database level. Every statement that creates or deletes an edge does the same to its EdgeRef.
 * - `(:WeightEvent {workspace, id, at, source, edgeId?, memoryId?, oldWeight, newWeight, delta, reason?, revertedBy?})`.
 * - `(:Recall {workspace, id, query?, results, truncated, createdAt, expiresAt})`: a recall record, `results` a JSON string.
 * - `(:MemoryVector {workspace, memoryId, embedding_d<N>})` and `(:VectorSpace {workspace, dims})`: vectors (vectors.ts).
 * - Timestamps are the ISO-8601 strings the domain passes in, stored and returned unchanged.
 */

export * from './edges.js';
export * from './import.js';
export * from './memories.js';
export * from './recall.js';
export * from './research-views.js';
export * from './schema.js';
export { FULLTEXT_INDEX, relationshipType } from './statement.js';
export * from './vectors.js';
export * from './walks.js';
export * from './weights.js';
