import { FULLTEXT_INDEX, statement } from './statement.js';

export const PING = statement('ping', 'RETURN 1 AS ok');

/** Server version and edition, checked once at start-up. */
export const SERVER_COMPONENTS = statement(
  'serverComponents',
  `
  CALL dbms.components() YIELD name, versions, edition
  RETURN name, versions, edition
  `,
);

/**
 * Idempotent schema, one statement per transaction (Neo4j does not mix schema and data changes).
 * Uniqueness constraints exist in Community edition; their backing range indexes serve the lookups
 * by (workspace, id) and (workspace, key). Nodes without a `key` are not subject to its constraint.
 */
export const SCHEMA: readonly { name: string; text: string }[] = [
  [
    'engram_memory_id',
    'CREATE CONSTRAINT engram_memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE (m.workspace, m.id) IS UNIQUE',
  ],
  [
    'engram_memory_key',
    'CREATE CONSTRAINT engram_memory_key IF NOT EXISTS FOR (m:Memory) REQUIRE (m.workspace, m.key) IS UNIQUE',
  ],
  [
    'engram_edge_ref_id',
    'CREATE CONSTRAINT engram_edge_ref_id IF NOT EXISTS FOR (k:EdgeRef) REQUIRE (k.workspace, k.id) IS UNIQUE',
  ],
  [
    'engram_edge_ref_triple',
    'CREATE CONSTRAINT engram_edge_ref_triple IF NOT EXISTS FOR (k:EdgeRef) REQUIRE (k.workspace, k.fromId, k.toId, k.type) IS UNIQUE',
  ],
  // A memory's edges in page order, by side, and by side and type (adjacentEdges, walks.ts).
  [
    'engram_edge_ref_from_rank',
    'CREATE INDEX engram_edge_ref_from_rank IF NOT EXISTS FOR (k:EdgeRef) ON (k.workspace, k.fromId, k.negWeight, k.id)',
  ],
  [
    'engram_edge_ref_to_rank',
    'CREATE INDEX engram_edge_ref_to_rank IF NOT EXISTS FOR (k:EdgeRef) ON (k.workspace, k.toId, k.negWeight, k.id)',
  ],
  [
    'engram_edge_ref_from_type_rank',
    'CREATE INDEX engram_edge_ref_from_type_rank IF NOT EXISTS FOR (k:EdgeRef) ON (k.workspace, k.fromId, k.type, k.negWeight, k.id)',
  ],
  [
    'engram_edge_ref_to_type_rank',
    'CREATE INDEX engram_edge_ref_to_type_rank IF NOT EXISTS FOR (k:EdgeRef) ON (k.workspace, k.toId, k.type, k.negWeight, k.id)',
  ],
  [
    'engram_weight_event_id',
    'CREATE CONSTRAINT engram_weight_event_id IF NOT EXISTS FOR (e:WeightEvent) REQUIRE (e.workspace, e.id) IS UNIQUE',
  ],
  [
    'engram_weight_event_edge',
    'CREATE INDEX engram_weight_event_edge IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.edgeId, e.at)',
  ],
  [
    'engram_weight_event_memory',
    'CREATE INDEX engram_weight_event_memory IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.memoryId, e.at)',
  ],
  [
    'engram_weight_event_at',
    'CREATE INDEX engram_weight_event_at IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.at)',
  ],
  // The orders weight events and recall records are listed and paged in (cypher/weights.ts,
  // cypher/recall.ts): id completes each key, so the index alone orders a page. They replace the
  // three (..., at) indexes above and (workspace, createdAt) below, which no statement uses any more;
  // those stay while an older replica may still name them in its hints.
  [
    'engram_weight_event_at_id',
    'CREATE INDEX engram_weight_event_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.at, e.id)',
  ],
  [
    'engram_weight_event_edge_at_id',
    'CREATE INDEX engram_weight_event_edge_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.edgeId, e.at, e.id)',
  ],
  [
    'engram_weight_event_memory_at_id',
    'CREATE INDEX engram_weight_event_memory_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.memoryId, e.at, e.id)',
  ],
  [
    'engram_weight_event_source_at_id',
    'CREATE INDEX engram_weight_event_source_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.source, e.at, e.id)',
  ],
  // One edge's or memory's events from one source: with the (edgeId, at, id) index alone the source
  // was checked on each of the edge's events, all of them when few matched. An event has an edgeId
  // or a memoryId, never both, so each lands in one of the two.
  [
    'engram_weight_event_edge_source_at_id',
    'CREATE INDEX engram_weight_event_edge_source_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.edgeId, e.source, e.at, e.id)',
  ],
  [
    'engram_weight_event_memory_source_at_id',
    'CREATE INDEX engram_weight_event_memory_source_at_id IF NOT EXISTS FOR (e:WeightEvent) ON (e.workspace, e.memoryId, e.source, e.at, e.id)',
  ],
  [
    'engram_recall_created_id',
    'CREATE INDEX engram_recall_created_id IF NOT EXISTS FOR (r:Recall) ON (r.workspace, r.createdAt, r.id)',
  ],
  [
    'engram_recall_id',
    'CREATE CONSTRAINT engram_recall_id IF NOT EXISTS FOR (r:Recall) REQUIRE (r.workspace, r.id) IS UNIQUE',
  ],
  [
    'engram_recall_created',
    'CREATE INDEX engram_recall_created IF NOT EXISTS FOR (r:Recall) ON (r.workspace, r.createdAt)',
  ],
  [
    'engram_recall_expiry',
    'CREATE INDEX engram_recall_expiry IF NOT EXISTS FOR (r:Recall) ON (r.workspace, r.expiresAt)',
  ],
  [
    'engram_search_pages_id',
    'CREATE CONSTRAINT engram_search_pages_id IF NOT EXISTS FOR (p:SearchPages) REQUIRE (p.workspace, p.id) IS UNIQUE',
  ],
  [
    'engram_search_pages_expiry',
    'CREATE INDEX engram_search_pages_expiry IF NOT EXISTS FOR (p:SearchPages) ON (p.workspace, p.expiresAt)',
  ],
  [
    'engram_memory_kind_created',
    'CREATE INDEX engram_memory_kind_created IF NOT EXISTS FOR (m:Memory) ON (m.workspace, m.kind, m.createdAt, m.id)',
  ],
  [
    'engram_memory_vector',
    'CREATE CONSTRAINT engram_memory_vector IF NOT EXISTS FOR (v:MemoryVector) REQUIRE (v.workspace, v.memoryId) IS UNIQUE',
  ],
  [
    'engram_vector_space',
    'CREATE CONSTRAINT engram_vector_space IF NOT EXISTS FOR (s:VectorSpace) REQUIRE s.workspace IS UNIQUE',
  ],
  // Association terms (cypher/associations.ts): a memory's terms, and the memories holding a term.
  [
    'engram_memory_term_memory',
    'CREATE INDEX engram_memory_term_memory IF NOT EXISTS FOR (t:MemoryTerm) ON (t.workspace, t.memoryId)',
  ],
  [
    'engram_memory_term_term',
    'CREATE INDEX engram_memory_term_term IF NOT EXISTS FOR (t:MemoryTerm) ON (t.workspace, t.term)',
  ],
  // The tag index (cypher/memories.ts): a tag's memories newest first, and the tags of a memory.
  [
    'engram_memory_tag',
    'CREATE INDEX engram_memory_tag IF NOT EXISTS FOR (t:MemoryTag) ON (t.workspace, t.tag, t.createdAt, t.memoryId)',
  ],
  [
    'engram_memory_tag_memory',
    'CREATE INDEX engram_memory_tag_memory IF NOT EXISTS FOR (t:MemoryTag) ON (t.workspace, t.memoryId)',
  ],
  // Recall cues (cypher/recall-cues.ts): a key's newest cues, a memory's cues, one cue by id.
  [
    'engram_recall_cue_key',
    'CREATE INDEX engram_recall_cue_key IF NOT EXISTS FOR (c:RecallCue) ON (c.workspace, c.key, c.createdAt, c.id)',
  ],
  [
    'engram_recall_cue_memory',
    'CREATE INDEX engram_recall_cue_memory IF NOT EXISTS FOR (c:RecallCue) ON (c.workspace, c.memoryId)',
  ],
  ['engram_recall_cue_id', 'CREATE INDEX engram_recall_cue_id IF NOT EXISTS FOR (c:RecallCue) ON (c.workspace, c.id)'],
  // The embedding queue: memories without a vector for their current text, oldest first (vectors.ts).
  [
    'engram_memory_embedding_queue',
    'CREATE INDEX engram_memory_embedding_queue IF NOT EXISTS FOR (m:Memory) ON (m.workspace, m.embeddingQueue)',
  ],
  [
    FULLTEXT_INDEX,
    `CREATE FULLTEXT INDEX ${FULLTEXT_INDEX} IF NOT EXISTS
     FOR (m:Memory) ON EACH [m.title, m.content, m.tagsText, m.workspace]`,
  ],
  // The index of earlier versions, without the workspace: every write kept it up to date for nothing.
  ['engram_memory_text', 'DROP INDEX engram_memory_text IF EXISTS'],
].map(([name, text]) => ({ name: name as string, text: statement(`schema:${name as string}`, text as string) }));

/** Waits (bounded) until the indexes created above are online, so the first search can use them. */
export const AWAIT_INDEXES = statement('awaitIndexes', 'CALL db.awaitIndexes($timeoutSeconds)');

/**
 * Changes to data an earlier version stored, each run once per database at start-up and then
 * marked done by an (:EngramMigration {name}) node. Each is one auto-commit statement working in
 * its own transactions of 10,000 (`CALL ... IN TRANSACTIONS` cannot run in a managed transaction).
 * Replicas racing on one set the same values.
 */
export const MIGRATIONS_DONE = statement(
  'migrationsDone',
  `
  MATCH (d:EngramMigration)
  RETURN d.name AS name
  `,
);

export const MARK_MIGRATION_DONE = statement('markMigrationDone', 'MERGE (:EngramMigration {name: $name})');

/** Memories stored before Neo4j kept vectors are in no queue: queue them, oldest change first. */
const QUEUE_EMBEDDING_BACKLOG = statement(
  'queueEmbeddingBacklog',
  `
  MATCH (m:Memory)
  WHERE m.embeddingQueue IS NULL
    AND NOT EXISTS { MATCH (v:MemoryVector {workspace: m.workspace, memoryId: m.id}) }
  CALL (m) {
    SET m.embeddingQueue = m.updatedAt + ' ' + m.id
  } IN TRANSACTIONS OF 10000 ROWS
  `,
);

/** EdgeRefs written before they kept their edge's weight are in no page index: copy the weight in. */
const COPY_EDGE_WEIGHTS_TO_REFS = statement(
  'copyEdgeWeightsToRefs',
  `
  MATCH (k:EdgeRef)
  WHERE k.negWeight IS NULL
  CALL (k) {
    MATCH (a:Memory {workspace: k.workspace, id: k.fromId})-[r]->(b:Memory {workspace: k.workspace, id: k.toId})
    WHERE r.id = k.id
    SET k.negWeight = -r.weight
  } IN TRANSACTIONS OF 10000 ROWS
  `,
);

/** Memories stored before the tag index (cypher/memories.ts) get their tag nodes. */
const FILL_TAG_INDEX = statement(
  'fillTagIndex',
  `
  MATCH (m:Memory)
  WHERE size(coalesce(m.tags, [])) > 0
    AND NOT EXISTS { MATCH (:MemoryTag {workspace: m.workspace, memoryId: m.id}) }
  CALL (m) {
    FOREACH (tag IN m.tags |
      MERGE (:MemoryTag {workspace: m.workspace, tag: tag, createdAt: m.createdAt, memoryId: m.id}))
  } IN TRANSACTIONS OF 10000 ROWS
  `,
);

export const MIGRATIONS: readonly { name: string; text: string }[] = [
  { name: 'embeddingBacklog', text: QUEUE_EMBEDDING_BACKLOG },
  { name: 'edgeRefWeights', text: COPY_EDGE_WEIGHTS_TO_REFS },
  { name: 'tagIndex', text: FILL_TAG_INDEX },
];
