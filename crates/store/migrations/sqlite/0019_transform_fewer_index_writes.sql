-- transform: fewer b-trees written for each job. Keep in step with
-- ../postgres/0019_transform_fewer_index_writes.sql.
--
-- A job's run writes at every commit each b-tree it changes, and on SQLite's one writer those
-- pages and the work of each b-tree insert set the pace of the engine. An intent was three
-- inserts (the table, its key, its `seq` index): it is now one, a table ordered by its key
-- (the rows of a job side by side), and a job's intents, a handful, are put in `seq` order
-- by sorting them. A job without a key (most) no longer has an entry in the key index.

CREATE TABLE transform_intents_new (
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
) WITHOUT ROWID;
INSERT INTO transform_intents_new
    SELECT workspace_id, job_id, id, seq, step_id, name, provider, completed, created_at,
           updated_at, events
    FROM transform_intents;
DROP TABLE transform_intents;
ALTER TABLE transform_intents_new RENAME TO transform_intents;

DROP INDEX transform_jobs_key_idx;
CREATE UNIQUE INDEX transform_jobs_key_idx ON transform_jobs (workspace_id, job_key)
    WHERE job_key IS NOT NULL;
