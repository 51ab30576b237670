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
];
