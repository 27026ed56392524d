-- sequence: series of gapless codes and the entries that took them. Keep in step with
-- ../sqlite/0006_sequence.sql.
CREATE TABLE sequence_series (
    workspace_id  TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id            TEXT   NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    name          TEXT   NOT NULL,
    code          TEXT,
    description   TEXT,
    prefix        TEXT   NOT NULL,
    suffix        TEXT   NOT NULL,
    padding       BIGINT NOT NULL,
    start         BIGINT NOT NULL,
    -- the index of the last entry (NULL before the first) and its id
    last_index    BIGINT,
    last_entry_id TEXT,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX sequence_series_name ON sequence_series (workspace_id, name);

-- One row per code handed out: the index is unique in its series, so no code repeats.
CREATE TABLE sequence_entries (
    workspace_id TEXT   NOT NULL,
    series_id    TEXT   NOT NULL,
    id           TEXT   NOT NULL,
    idx          BIGINT NOT NULL,
    code         TEXT   NOT NULL,
    previous_id  TEXT,
    meta         TEXT   NOT NULL,
    sigs         TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, series_id, id),
    FOREIGN KEY (workspace_id, series_id) REFERENCES sequence_series (workspace_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sequence_entries_idx ON sequence_entries (workspace_id, series_id, idx);
