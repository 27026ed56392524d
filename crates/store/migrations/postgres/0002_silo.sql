-- silo: GOBL envelopes, their versions, files, states and the workspaces' signing keys (PostgreSQL).
-- Keep in step with ../sqlite/0002_silo.sql.

-- One row per envelope; its current data lives in silo_versions (row `version`).
CREATE TABLE silo_envelopes (
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id           TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    key          TEXT,
    folder       TEXT,
    env_schema   TEXT   NOT NULL,
    doc_schema   TEXT   NOT NULL,
    digest       TEXT   NOT NULL,
    signed       BIGINT NOT NULL,
    state        TEXT,
    version      TEXT   NOT NULL,
    tags         TEXT   NOT NULL,
    meta         TEXT   NOT NULL,
    -- sha256 of the creating request's canonical content: a repeated PUT is recognised by it.
    fingerprint  TEXT   NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX silo_envelopes_key ON silo_envelopes (workspace_id, key);
CREATE INDEX silo_envelopes_created ON silo_envelopes (workspace_id, created_at, id);
CREATE INDEX silo_envelopes_folder ON silo_envelopes (workspace_id, folder, created_at, id);

-- Every content an envelope has had, addressed by a short content id.
CREATE TABLE silo_versions (
    workspace_id TEXT   NOT NULL,
    envelope_id  TEXT   NOT NULL,
    version      TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    data         TEXT   NOT NULL,
    PRIMARY KEY (workspace_id, envelope_id, version),
    FOREIGN KEY (workspace_id, envelope_id) REFERENCES silo_envelopes (workspace_id, id) ON DELETE CASCADE
);

-- Attached files; bytes are in the content-addressed blob store under `hash`.
-- `replaced_by` is set when a later file with the same key and category takes its place.
CREATE TABLE silo_files (
    workspace_id TEXT   NOT NULL,
    envelope_id  TEXT   NOT NULL,
    id           TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    name         TEXT   NOT NULL,
    descr        TEXT,
    key          TEXT,
    category     TEXT,
    hash         TEXT   NOT NULL,
    mime         TEXT   NOT NULL,
    size         BIGINT NOT NULL,
    meta         TEXT,
    replaced_by  TEXT,
    PRIMARY KEY (workspace_id, envelope_id, id),
    FOREIGN KEY (workspace_id, envelope_id) REFERENCES silo_envelopes (workspace_id, id) ON DELETE CASCADE
);

-- State changes, newest last.
CREATE TABLE silo_states (
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
);

-- ES256 signing keys per workspace (private JWK). The highest `rank` signs; all verify.
CREATE TABLE silo_keys (
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kid          TEXT   NOT NULL,
    rank         BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    private_jwk  TEXT   NOT NULL,
    PRIMARY KEY (workspace_id, kid)
);
CREATE UNIQUE INDEX silo_keys_rank ON silo_keys (workspace_id, rank);
