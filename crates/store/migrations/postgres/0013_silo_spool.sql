-- silo: the spool, temporary uploads a later request or job refers to by key. The bytes are a
-- temporary blob (`spool/<blob>`, not content-addressed: deleted with the row). Rows past
-- `expires_at` are never read and are swept, row and blob. Times are milliseconds.
-- Keep in step with ../sqlite/0013_silo_spool.sql.
CREATE TABLE silo_spool (
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key          TEXT   NOT NULL,
    blob         TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    mime         TEXT   NOT NULL,
    size         BIGINT NOT NULL,
    hash         TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, key)
);
CREATE INDEX silo_spool_expires ON silo_spool (expires_at);
