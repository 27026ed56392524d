-- transform: fewer index entries written for each job. Keep in step with
-- ../sqlite/0019_transform_fewer_index_writes.sql: an intent is found by its key alone (a
-- job's intents, a handful, are put in `seq` order by sorting them), and a job without a key
-- (most) no longer has an entry in the key index.

DROP INDEX transform_intents_seq_idx;

DROP INDEX transform_jobs_key_idx;
CREATE UNIQUE INDEX transform_jobs_key_idx ON transform_jobs (workspace_id, job_key)
    WHERE job_key IS NOT NULL;
