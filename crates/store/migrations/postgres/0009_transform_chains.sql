-- transform: chains of fiscal records, one per issuer and format (VERI*FACTU records name the
-- previous record's fingerprint; TicketBAI files the previous file's signature). Keep in step
-- with ../sqlite/0009_transform_chains.sql.
--
-- The head row is locked while a record is written (PostgreSQL: FOR UPDATE; SQLite: its one
-- writer), so the records of one chain are written one at a time, on any node: no fork, no
-- gap. A record and the new head commit together, or neither does.
CREATE TABLE transform_chains (
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    format       TEXT   NOT NULL,
    issuer       TEXT   NOT NULL,
    -- records in the chain, and the last one's link as JSON (NULL before the first)
    length       BIGINT NOT NULL,
    head         TEXT,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, format, issuer)
);

-- One row per record written; position counts from 1 in its chain.
CREATE TABLE transform_chain_records (
    workspace_id TEXT   NOT NULL,
    format       TEXT   NOT NULL,
    issuer       TEXT   NOT NULL,
    position     BIGINT NOT NULL,
    -- the step run that wrote it: a re-run finds its record instead of writing another
    intent_id    TEXT   NOT NULL,
    envelope_id  TEXT,
    link         TEXT   NOT NULL,
    meta         TEXT   NOT NULL,
    xml          TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, format, issuer, position),
    FOREIGN KEY (workspace_id, format, issuer)
        REFERENCES transform_chains (workspace_id, format, issuer) ON DELETE CASCADE
);
CREATE UNIQUE INDEX transform_chain_records_intent
    ON transform_chain_records (workspace_id, format, intent_id);
