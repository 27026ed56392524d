-- Web console sign-ins: sessions (a browser's cookie) and one-time links (`folio console-link`).
-- Only the SHA-256 of the secret is kept, so a copy of the table signs no one in.
CREATE TABLE console_sessions (
    id           TEXT   NOT NULL PRIMARY KEY,
    kind         TEXT   NOT NULL,
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    token_id     TEXT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    revoked_at   BIGINT
);
CREATE INDEX console_sessions_expires_idx ON console_sessions (expires_at);
