-- access: what a workspace says about itself (Invopop's AccessWorkspace). `slug` is unique
-- once set; `updated_at` is NULL until the first change (the creation time until then).
-- Keep in step with ../sqlite/0012_access_workspaces.sql.
ALTER TABLE workspaces ADD COLUMN slug TEXT;
ALTER TABLE workspaces ADD COLUMN country TEXT;
ALTER TABLE workspaces ADD COLUMN logo_url TEXT;
ALTER TABLE workspaces ADD COLUMN updated_at BIGINT;
CREATE UNIQUE INDEX workspaces_slug_key ON workspaces (slug);
