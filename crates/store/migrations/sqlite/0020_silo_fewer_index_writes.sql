-- silo: fewer b-trees written for each envelope and state. Keep in step with
-- ../postgres/0020_silo_fewer_index_writes.sql.
--
-- SQLite's one writer writes every b-tree an envelope's PUT changes, and that work sets the
-- PUT's pace. The key and folder indexes are read only for a key or a folder (`key = ?`,
-- `folder = ?`): an envelope with none (most) no longer has an entry in them. A state was two
-- inserts (the table and its key): it is now one, a table ordered by its key, an envelope's
-- states side by side.

DROP INDEX silo_envelopes_key;
CREATE UNIQUE INDEX silo_envelopes_key ON silo_envelopes (workspace_id, key)
    WHERE key IS NOT NULL;
DROP INDEX silo_envelopes_folder;
CREATE INDEX silo_envelopes_folder ON silo_envelopes (workspace_id, folder, created_at, id)
    WHERE folder IS NOT NULL;

CREATE TABLE silo_states_new (
    workspace_id TEXT   NOT NULL,
    envelope_id  TEXT   NOT NULL,
    id           TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    key          TEXT   NOT NULL,
    notes        TEXT,
    meta         TEXT,
    src          TEXT,
    src_id       TEXT,
    PRIMARY KEY (workspace_id, envelope_id, id),
    FOREIGN KEY (workspace_id, envelope_id) REFERENCES silo_envelopes (workspace_id, id) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO silo_states_new
    SELECT workspace_id, envelope_id, id, created_at, key, notes, meta, src, src_id
    FROM silo_states;
DROP TABLE silo_states;
ALTER TABLE silo_states_new RENAME TO silo_states;
