-- transform: an e-invoice (XML text) given to a job as `data`, read by an import step; NULL
-- for jobs given an envelope or a GOBL document. Keep in step with ../sqlite/0005_transform_job_input.sql.
ALTER TABLE transform_jobs ADD COLUMN input TEXT;
