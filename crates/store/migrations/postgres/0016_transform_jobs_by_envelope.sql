-- The jobs that ran on one envelope, newest first (the console's envelope page), without a
-- scan of the workspace's jobs.
CREATE INDEX transform_jobs_envelope_idx ON transform_jobs (workspace_id, silo_entry_id, created_at);
