-- silo: the index of related entries, and files whose content is uploaded later.
-- Keep in step with ../sqlite/0014_silo_related_and_placeholders.sql.

-- Each envelope's references to other documents' UUIDs (preceding documents of credit notes
-- and corrective invoices, items, links, any `uuid` member below the document's own), written
-- with each version of the envelope, so `related` reads this index instead of documents.
-- `contexts` lists where in the document the UUID appears (`preceding`, `line.item`, ...),
-- comma-separated; `created_at` is the referring envelope's, for its order.
CREATE TABLE silo_related (
    workspace_id TEXT   NOT NULL,
    target       TEXT   NOT NULL,
    envelope_id  TEXT   NOT NULL,
    contexts     TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, target, envelope_id),
    FOREIGN KEY (workspace_id, envelope_id) REFERENCES silo_envelopes (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX silo_related_target ON silo_related (workspace_id, target, created_at, envelope_id);
CREATE INDEX silo_related_envelope ON silo_related (workspace_id, envelope_id);

-- A file given with its sha256 and size but no data is a placeholder (stored = 0) until an
-- upload with that digest and size fills it.
ALTER TABLE silo_files ADD COLUMN stored BIGINT NOT NULL DEFAULT 1;
