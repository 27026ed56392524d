-- silo: fewer index entries written for each envelope. Keep in step with
-- ../sqlite/0020_silo_fewer_index_writes.sql: the key and folder indexes are read only for a
-- key or a folder (`key = $n`, `folder = $n`), so an envelope with none (most) no longer has
-- an entry in them.

DROP INDEX silo_envelopes_key;
CREATE UNIQUE INDEX silo_envelopes_key ON silo_envelopes (workspace_id, key)
    WHERE key IS NOT NULL;
DROP INDEX silo_envelopes_folder;
CREATE INDEX silo_envelopes_folder ON silo_envelopes (workspace_id, folder, created_at, id)
    WHERE folder IS NOT NULL;
