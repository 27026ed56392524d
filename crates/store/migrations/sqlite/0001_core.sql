-- folio core tables (SQLite). Keep in step with ../postgres/0001_core.sql.
-- Conventions: ids are TEXT (uuid strings), timestamps BIGINT unix milliseconds,
-- JSON TEXT, bytes BLOB.

CREATE TABLE workspaces (
    id         TEXT   NOT NULL PRIMARY KEY,
    name       TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX workspaces_name_key ON workspaces (name);

-- API tokens: the JWT is not stored, only its id, so it can be listed and revoked.
CREATE TABLE tokens (
    id           TEXT   NOT NULL PRIMARY KEY,
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX tokens_workspace_idx ON tokens (workspace_id);
CREATE INDEX tokens_created_idx ON tokens (created_at, id);

-- Per-database secrets (e.g. the HS256 key for API tokens), created once.
CREATE TABLE server_secrets (
    name       TEXT   NOT NULL PRIMARY KEY,
    secret     BLOB   NOT NULL,
    created_at BIGINT NOT NULL
);
