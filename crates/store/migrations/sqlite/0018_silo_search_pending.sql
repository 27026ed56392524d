-- silo: the full-text index is fed in batches. Keep the number in step with
-- ../postgres/0018_silo_search_pending.sql (PostgreSQL indexes the row itself: nothing pending).
--
-- FTS5 writes what it was given to disk at every savepoint and commit, and each write of the
-- writer's group commit runs in a savepoint: fed by the envelope's own statement, the index
-- wrote (and merged) a segment for every PUT inside the one writer's turn, which made that
-- turn 2.8 times longer (callgrind) and halved the PUT rate. The envelope's statement now adds
-- a row here, a plain append; the silo moves these rows into `silo_search` a batch at a time
-- soon after (`Silo::index_search`), and search reads the rows still here as well, so an
-- envelope is found from the moment its PUT returns.
CREATE TABLE silo_search_pending (
    seq INTEGER PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    envelope_id TEXT NOT NULL,
    version TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX silo_search_pending_workspace ON silo_search_pending (workspace_id);

DROP TRIGGER silo_search_created;
DROP TRIGGER silo_search_changed;
CREATE TRIGGER silo_search_created AFTER INSERT ON silo_envelopes BEGIN
    INSERT INTO silo_search_pending (workspace_id, envelope_id, version, text)
    VALUES (new.workspace_id, new.id, new.version, new.search_text);
END;
CREATE TRIGGER silo_search_changed AFTER UPDATE OF version ON silo_envelopes
WHEN new.version IS NOT old.version BEGIN
    INSERT INTO silo_search_pending (workspace_id, envelope_id, version, text)
    VALUES (new.workspace_id, new.id, new.version, new.search_text);
END;
