-- silo: the PKCS#12 identities (certificate and private key) a workspace signs documents with.
-- The file and its password are sealed with the key-encryption key (text
-- "v1.<key id>.<base64>", see folio-store's keys module); the certificate's public details are
-- kept in the clear for listing. Times are milliseconds. Keep in step with
-- ../sqlite/0010_silo_identities.sql.
CREATE TABLE silo_identities (
    id           TEXT   NOT NULL PRIMARY KEY,
    workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT   NOT NULL,
    subject      TEXT   NOT NULL,
    issuer       TEXT   NOT NULL,
    serial       TEXT   NOT NULL,
    not_before   BIGINT NOT NULL,
    not_after    BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    pkcs12       TEXT   NOT NULL,
    password     TEXT   NOT NULL
);
CREATE INDEX silo_identities_workspace ON silo_identities (workspace_id, created_at);
