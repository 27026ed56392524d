-- transform: each workspace's webhook signing secret (Standard Webhooks, "whsec_<base64>"),
-- created on first use. After a rotation the previous secret still signs deliveries until
-- previous_until (milliseconds), so receivers can switch over without dropping any.
-- Keep in step with ../sqlite/0007_transform_webhook_secrets.sql.
CREATE TABLE transform_webhook_secrets (
    workspace_id   TEXT   NOT NULL PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    secret         TEXT   NOT NULL,
    created_at     BIGINT NOT NULL,
    previous       TEXT,
    previous_until BIGINT
);
