-- silo: validation faults of a bare document stored with "allow_invalid": true, as a JSON array
-- of {"code", "message", "paths"}; NULL when there are none (valid documents, full envelopes).
-- Keep in step with ../postgres/0004_silo_faults.sql.
ALTER TABLE silo_envelopes ADD COLUMN faults TEXT;
