/**
 * Schema migrations, applied in order at start-up. `PRAGMA user_version` records how many ran.
 * Append only: a released migration is never edited.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE memories (
    rid         INTEGER PRIMARY KEY,
    workspace   TEXT NOT NULL,
    id          TEXT NOT NULL,
    key         TEXT,
    title       TEXT NOT NULL,
    content     TEXT,
    kind        TEXT,
    tags        TEXT NOT NULL DEFAULT '[]',
    weight      REAL NOT NULL,
    prev_weight REAL,
    metadata    TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    UNIQUE (workspace, id)
  );
  CREATE UNIQUE INDEX memories_key ON memories (workspace, key) WHERE key IS NOT NULL;
  CREATE INDEX memories_kind ON memories (workspace, kind);

  -- prev_weight holds the weight before the latest change, so one UPDATE ... RETURNING reports
  -- both sides of an atomic read-modify-write.
  CREATE TABLE edges (
    rid               INTEGER PRIMARY KEY,
    workspace         TEXT NOT NULL,
    id                TEXT NOT NULL,
    from_id           TEXT NOT NULL,
    to_id             TEXT NOT NULL,
    type              TEXT NOT NULL,
    weight            REAL NOT NULL,
    prev_weight       REAL,
    metadata          TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    last_confirmed_at TEXT,
    UNIQUE (workspace, id),
    UNIQUE (workspace, from_id, to_id, type),
    FOREIGN KEY (workspace, from_id) REFERENCES memories (workspace, id) ON DELETE CASCADE,
    FOREIGN KEY (workspace, to_id) REFERENCES memories (workspace, id) ON DELETE CASCADE
  );
  -- Covering indexes: a walk step in either direction reads only the index, never the table.
  CREATE INDEX edges_out ON edges (workspace, from_id, type, weight, to_id, id);
  CREATE INDEX edges_in ON edges (workspace, to_id, type, weight, from_id, id);

  CREATE TABLE weight_events (
    rid         INTEGER PRIMARY KEY,
    workspace   TEXT NOT NULL,
    id          TEXT NOT NULL,
    at          TEXT NOT NULL,
    source      TEXT NOT NULL,
    edge_id     TEXT,
    memory_id   TEXT,
    old         REAL NOT NULL,
    new         REAL NOT NULL,
    delta       REAL NOT NULL,
    reason      TEXT,
    reverted_by TEXT,
    UNIQUE (workspace, id)
  );
  CREATE INDEX weight_events_edge ON weight_events (workspace, edge_id, rid);
  CREATE INDEX weight_events_memory ON weight_events (workspace, memory_id, rid);
  CREATE INDEX weight_events_source ON weight_events (workspace, source, rid);

  CREATE VIRTUAL TABLE memories_fts USING fts5 (
    title, content, tags,
    content = 'memories', content_rowid = 'rid',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, title, content, tags) VALUES (new.rid, new.title, new.content, new.tags);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, title, content, tags) VALUES ('delete', old.rid, old.title, old.content, old.tags);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF title, content, tags ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, title, content, tags) VALUES ('delete', old.rid, old.title, old.content, old.tags);
    INSERT INTO memories_fts (rowid, title, content, tags) VALUES (new.rid, new.title, new.content, new.tags);
  END;
  `,
  // listEdgesByType and rankTargetsBySources read all edges of a few types in a workspace.
  `
  CREATE INDEX edges_type ON edges (workspace, type, weight, id);
  `,
  // The change log that keeps in-process adjacency indexes coherent (adjacency-index/catch-up.ts). New
  // edges need no log: they get a rowid above every rowid a reader has seen, except when the edge
  // with the largest rowid was deleted first, and deletions are logged with their rowid. So the
  // triggers log what a rowid scan cannot see: deletions (cascades from a deleted memory included)
  // and changes of an edge's ends, type or weight, by any connection. Writers prune the log to its
  // newest rows; AUTOINCREMENT keeps seq growing even when pruning empties the table.
  // A bulk import mutes these rows for its workspace for the length of its own transaction (no
  // other connection ever sees the mute) and logs one row with a NULL edge id instead: "this
  // workspace changed wholesale", which makes readers rebuild rather than patch.
  `
  CREATE TABLE edge_changes (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace TEXT NOT NULL,
    edge_id   TEXT,
    edge_rid  INTEGER
  );
  CREATE TABLE edge_changes_muted (workspace TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TRIGGER edges_changes_delete AFTER DELETE ON edges
  WHEN NOT EXISTS (SELECT 1 FROM edge_changes_muted WHERE workspace = old.workspace)
  BEGIN
    INSERT INTO edge_changes (workspace, edge_id, edge_rid) VALUES (old.workspace, old.id, old.rid);
  END;
  CREATE TRIGGER edges_changes_update AFTER UPDATE OF workspace, id, from_id, to_id, type, weight ON edges
  WHEN (old.weight IS NOT new.weight OR old.from_id IS NOT new.from_id OR old.to_id IS NOT new.to_id
    OR old.type IS NOT new.type OR old.id IS NOT new.id OR old.workspace IS NOT new.workspace)
    AND NOT EXISTS (SELECT 1 FROM edge_changes_muted WHERE workspace = new.workspace)
  BEGIN
    INSERT INTO edge_changes (workspace, edge_id, edge_rid) VALUES (new.workspace, new.id, new.rid);
    INSERT INTO edge_changes (workspace, edge_id, edge_rid)
      SELECT old.workspace, old.id, old.rid WHERE old.id IS NOT new.id OR old.workspace IS NOT new.workspace;
  END;
  `,
  // Recall records (recall-records.ts): results and paths as one JSON text, read and written whole.
  // Expired rows are purged by writers a few at a time, oldest expiry first.
  `
  CREATE TABLE recalls (
    rid        INTEGER PRIMARY KEY,
    workspace  TEXT NOT NULL,
    id         TEXT NOT NULL,
    query      TEXT,
    results    TEXT NOT NULL,
    truncated  INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    UNIQUE (workspace, id)
  );
  CREATE INDEX recalls_created ON recalls (workspace, created_at, id);
  CREATE INDEX recalls_expiry ON recalls (workspace, expires_at);
  `,
  // searchMemories with no words lists a workspace's memories of a kind newest first: one walk of
  // this index per kind, never a sort of every memory of the kind.
  `
  CREATE INDEX memories_kind_created ON memories (workspace, kind, created_at, id);
  `,
  // Association terms (association-terms.ts, domain/associations.ts): derived from each memory's
  // text, so never exported, and removed with their memory by the trigger whichever way it goes.
  `
  CREATE TABLE memory_terms (
    workspace TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    terms     TEXT NOT NULL,
    PRIMARY KEY (workspace, memory_id)
  ) WITHOUT ROWID;
  CREATE TABLE term_postings (
    workspace TEXT NOT NULL,
    term      TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    PRIMARY KEY (workspace, term, memory_id)
  ) WITHOUT ROWID;
  CREATE TRIGGER memories_terms_delete AFTER DELETE ON memories BEGIN
    DELETE FROM term_postings WHERE workspace = old.workspace AND memory_id = old.id AND term IN (
      SELECT value FROM json_each((SELECT terms FROM memory_terms WHERE workspace = old.workspace AND memory_id = old.id)));
    DELETE FROM memory_terms WHERE workspace = old.workspace AND memory_id = old.id;
  END;
  `,
  // A text search's ranked ids, kept for its later pages (search-pages.ts); purged like recalls.
  `
  CREATE TABLE search_pages (
    workspace  TEXT NOT NULL,
    id         TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (workspace, id)
  ) WITHOUT ROWID;
  CREATE INDEX search_pages_expiry ON search_pages (workspace, expires_at);
  `,
  // Pages of one memory's edges, strongest first, then by id (getAdjacentPage): edges_out and
  // edges_in hold the other end before the id, so a page among many edges of one weight (an import
  // gives them all 0.5) sorted every one of them; here a page seeks its position per relation type
  // and reads on in order. Covering: the records are read for the kept entries only.
  `
  CREATE INDEX edges_out_ranked ON edges (workspace, from_id, type, weight DESC, id, to_id);
  CREATE INDEX edges_in_ranked ON edges (workspace, to_id, type, weight DESC, id, from_id);
  `,
  // Weight events list newest first by (at, id), as the Neo4j store always did: rowid order put
  // events of one instant in commit order, which a page cursor holding only (at, id) cannot seek.
  // With id in each index a page starts exactly at its cursor and reads first + 1 index entries,
  // however many events share the cursor's instant. The rowid indexes served only that order.
  `
  DROP INDEX weight_events_edge;
  DROP INDEX weight_events_memory;
  DROP INDEX weight_events_source;
  CREATE INDEX weight_events_at ON weight_events (workspace, at, id);
  CREATE INDEX weight_events_edge_at ON weight_events (workspace, edge_id, at, id);
  CREATE INDEX weight_events_memory_at ON weight_events (workspace, memory_id, at, id);
  CREATE INDEX weight_events_source_at ON weight_events (workspace, source, at, id);
  `,
  // Full-text search scoped to its workspace inside the index: the one full-text table spans every
  // workspace, so a word common in another tenant's memories made this tenant's search walk and
  // score all of them (about 190 ms for a common word over 20k memories elsewhere). Each memory is
  // now indexed with a `scope` token, its workspace name in hex (one token whatever characters the
  // name holds, so no two workspaces share it), and every search ANDs it in. The view gives the
  // external-content table that column; `rebuild` re-reads every memory once, at this upgrade.
  `
  DROP TRIGGER memories_fts_insert;
  DROP TRIGGER memories_fts_delete;
  DROP TRIGGER memories_fts_update;
  DROP TABLE memories_fts;
  CREATE VIEW memories_fts_source AS
    SELECT rid, title, content, tags, 'w' || hex(workspace) AS scope FROM memories;
  CREATE VIRTUAL TABLE memories_fts USING fts5 (
    title, content, tags, scope,
    content = 'memories_fts_source', content_rowid = 'rid',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, title, content, tags, scope)
    VALUES (new.rid, new.title, new.content, new.tags, 'w' || hex(new.workspace));
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, title, content, tags, scope)
    VALUES ('delete', old.rid, old.title, old.content, old.tags, 'w' || hex(old.workspace));
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF workspace, title, content, tags ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, title, content, tags, scope)
    VALUES ('delete', old.rid, old.title, old.content, old.tags, 'w' || hex(old.workspace));
    INSERT INTO memories_fts (rowid, title, content, tags, scope)
    VALUES (new.rid, new.title, new.content, new.tags, 'w' || hex(new.workspace));
  END;
  INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
  `,
  // searchMemories with tags and no words lists newest first: one walk of this index per tag, as
  // memories_kind_created serves kinds. Through the full-text index it read and sorted every memory
  // holding the tag, unbounded in a workspace where most memories share one. Kept by triggers (the
  // bulk load drops them and fills the table once); filled here from every stored memory.
  `
  CREATE TABLE memory_tags (
    workspace  TEXT NOT NULL,
    tag        TEXT NOT NULL,
    created_at TEXT NOT NULL,
    memory_id  TEXT NOT NULL,
    PRIMARY KEY (workspace, tag, created_at, memory_id)
  ) WITHOUT ROWID;
  CREATE TRIGGER memory_tags_insert AFTER INSERT ON memories BEGIN
    INSERT OR IGNORE INTO memory_tags (workspace, tag, created_at, memory_id)
    SELECT new.workspace, value, new.created_at, new.id FROM json_each(new.tags);
  END;
  CREATE TRIGGER memory_tags_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memory_tags WHERE workspace = old.workspace AND created_at = old.created_at
      AND memory_id = old.id AND tag IN (SELECT value FROM json_each(old.tags));
  END;
  CREATE TRIGGER memory_tags_update AFTER UPDATE OF workspace, id, tags, created_at ON memories
  WHEN old.workspace IS NOT new.workspace OR old.id IS NOT new.id OR old.tags IS NOT new.tags
    OR old.created_at IS NOT new.created_at
  BEGIN
    DELETE FROM memory_tags WHERE workspace = old.workspace AND created_at = old.created_at
      AND memory_id = old.id AND tag IN (SELECT value FROM json_each(old.tags));
    INSERT OR IGNORE INTO memory_tags (workspace, tag, created_at, memory_id)
    SELECT new.workspace, value, new.created_at, new.id FROM json_each(new.tags);
  END;
  INSERT OR IGNORE INTO memory_tags (workspace, tag, created_at, memory_id)
  SELECT m.workspace, t.value, m.created_at, m.id FROM memories m, json_each(m.tags) t ORDER BY 1, 2, 3, 4;
  `,
  // What search remembers of its words (how many memories hold one) is off by at most the number
  // of memories added, removed or rewritten since, on any connection: these triggers count them.
  // PRAGMA data_version counted every commit, recall records and edge weights included, so beside
  // another worker process a search forgot its words after nearly every request. The bulk load
  // adds its rows' count in one update.
  `
  CREATE TABLE text_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO text_generation (id, n) VALUES (1, 0);
  CREATE TRIGGER text_generation_insert AFTER INSERT ON memories BEGIN
    UPDATE text_generation SET n = n + 1;
  END;
  CREATE TRIGGER text_generation_delete AFTER DELETE ON memories BEGIN
    UPDATE text_generation SET n = n + 1;
  END;
  CREATE TRIGGER text_generation_update AFTER UPDATE OF workspace, title, content, tags ON memories
  WHEN old.workspace IS NOT new.workspace OR old.title IS NOT new.title OR old.content IS NOT new.content
    OR old.tags IS NOT new.tags
  BEGIN
    UPDATE text_generation SET n = n + 1;
  END;
  `,
  // Weight events of one edge or memory from one source (weightEventsConnection(edgeId, source)):
  // the edge's (at, id) index checked the source on each of its events, so an edge with thousands
  // of AGENT events asked for its MANUAL ones read them all. An event targets an edge or a
  // memory, so each lands in one of these partial indexes: one index entry more per event.
  `
  CREATE INDEX weight_events_edge_source_at ON weight_events (workspace, edge_id, source, at, id)
    WHERE edge_id IS NOT NULL;
  CREATE INDEX weight_events_memory_source_at ON weight_events (workspace, memory_id, source, at, id)
    WHERE memory_id IS NOT NULL;
  `,
  // The full-text index's terms, by which search tells whether its last word, a prefix, starts a
  // longer word (search.ts): a view of the index, nothing is stored. One row per occurrence, read
  // lazily: the `row` kind counts a term's every posting before it answers (1.6 ms for a word a
  // quarter of 100k memories hold). A temporary table vanished whenever the connection's
  // temp_store changed, which a bulk load does.
  `
  CREATE VIRTUAL TABLE search_vocabulary USING fts5vocab(memories_fts, instance);
  `,
  // Recall cues (recall-cues.ts, domain/recall-cues.ts): one row per cue and key, so a lookup
  // seeks each key's newest rows; the memory index serves the per-memory cap and the same-question
  // replacement. Learned, not derived, but never exported (docs/recall.md); they go with their memory.
  `
  CREATE TABLE recall_cues (
    workspace  TEXT NOT NULL,
    key        TEXT NOT NULL,
    created_at TEXT NOT NULL,
    id         TEXT NOT NULL,
    memory_id  TEXT NOT NULL,
    edge_id    TEXT NOT NULL,
    names      TEXT NOT NULL,
    terms      TEXT NOT NULL,
    PRIMARY KEY (workspace, key, created_at, id)
  ) WITHOUT ROWID;
  CREATE INDEX recall_cues_memory ON recall_cues (workspace, memory_id, created_at, id);
  CREATE INDEX recall_cues_id ON recall_cues (workspace, id);
  CREATE TRIGGER memories_cues_delete AFTER DELETE ON memories BEGIN
    DELETE FROM recall_cues WHERE workspace = old.workspace AND memory_id = old.id;
  END;
  `,
];
