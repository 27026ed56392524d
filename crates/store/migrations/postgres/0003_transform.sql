-- transform service (PostgreSQL). Keep in step with ../sqlite/0003_transform.sql.
-- Workflows with immutable published versions; jobs are queue rows with leases; one intent
-- row per step run, its events as a JSON array.

CREATE TABLE transform_workflows (
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id           TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    name         TEXT   NOT NULL,
    doc_schema   TEXT,
    definition   TEXT   NOT NULL, -- the current definition (JSON), draft or published
    hash         TEXT   NOT NULL,
    draft        BIGINT NOT NULL,
    disabled     BIGINT NOT NULL,
    version      BIGINT NOT NULL, -- latest published version, 0 when never published
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX transform_workflows_list_idx ON transform_workflows (workspace_id, created_at, id);

CREATE TABLE transform_workflow_versions (
    workspace_id TEXT   NOT NULL,
    workflow_id  TEXT   NOT NULL,
    version      BIGINT NOT NULL,
    hash         TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    definition   TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, workflow_id, version),
    FOREIGN KEY (workspace_id, workflow_id) REFERENCES transform_workflows (workspace_id, id) ON DELETE CASCADE
);

CREATE TABLE transform_jobs (
    workspace_id     TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    id               TEXT   NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    completed_at     BIGINT,
    workflow_id      TEXT   NOT NULL,
    workflow_version BIGINT NOT NULL,
    silo_entry_id    TEXT,
    job_key          TEXT,
    args             TEXT   NOT NULL,
    tags             TEXT   NOT NULL,
    request_hash     TEXT   NOT NULL,
    status           TEXT   NOT NULL,
    faults           TEXT   NOT NULL,
    -- engine cursor: where the job is and what the current step has done so far
    phase            TEXT   NOT NULL, -- main | rescue
    step_id          TEXT,
    intent_id        TEXT,
    intent_seq       BIGINT NOT NULL,
    attempt          BIGINT NOT NULL,
    step_state       TEXT,
    -- queue: claimable when ready_at <= now; a lease moves ready_at to its expiry
    ready_at         BIGINT,
    lease_owner      TEXT,
    claims           BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX transform_jobs_key_idx ON transform_jobs (workspace_id, job_key);
CREATE INDEX transform_jobs_list_idx ON transform_jobs (workspace_id, created_at, id);
CREATE INDEX transform_jobs_ready_idx ON transform_jobs (ready_at) WHERE ready_at IS NOT NULL;

CREATE TABLE transform_intents (
    workspace_id TEXT   NOT NULL,
    job_id       TEXT   NOT NULL,
    id           TEXT   NOT NULL,
    seq          BIGINT NOT NULL,
    step_id      TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    provider     TEXT   NOT NULL,
    completed    BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    events       TEXT   NOT NULL,
    PRIMARY KEY (workspace_id, job_id, id),
    FOREIGN KEY (workspace_id, job_id) REFERENCES transform_jobs (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX transform_intents_seq_idx ON transform_intents (workspace_id, job_id, seq);
