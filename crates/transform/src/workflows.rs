//! Saving, publishing, fetching and listing workflows.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use folio_store::{Backend, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::{TransformError, TransformResult};
use crate::model::{Page, SaveWorkflow, Workflow, WorkflowVersion};
use crate::workflow::Definition;
use crate::{Transform, rows};

const COLUMNS: &str = "id, created_at, updated_at, definition, hash, draft, disabled, version";

impl Transform {
    /// Validates a definition for saving: fills missing step ids, then checks actions, step
    /// references, loops, configs and the step limit.
    pub fn prepare(
        &self,
        workflow_id: Uuid,
        mut save: SaveWorkflow,
        max_steps: usize,
    ) -> TransformResult<SaveWorkflow> {
        save.definition.fill_ids(workflow_id);
        let errors = save.definition.validate(self.registry(), max_steps);
        if errors.is_empty() {
            Ok(save)
        } else {
            Err(TransformError::Invalid(errors))
        }
    }

    /// Creates a workflow with a client-chosen id (`created` is false when the same workflow
    /// was already saved with this id; different content is a conflict). Publishes version 1
    /// unless it is a draft.
    pub async fn create_workflow(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        save: SaveWorkflow,
        max_steps: usize,
    ) -> TransformResult<(Workflow, bool)> {
        let save = self.prepare(id, save, max_steps)?;
        let hash = save.definition.hash();
        let mut tx = self.store().begin_write().await?;
        let existing = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 AND id = $2"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = existing {
            let wf = workflow(&row)?;
            return if wf.hash == hash && wf.draft == save.draft && wf.disabled == save.disabled {
                Ok((wf, false))
            } else {
                Err(TransformError::Conflict(
                    "a different workflow already has this id".into(),
                ))
            };
        }
        let now = folio_store::now();
        let version = if save.draft { 0 } else { 1 };
        let definition = serde_json::to_string(&save.definition)?;
        let inserted = sqlx::query(
            "INSERT INTO transform_workflows (workspace_id, id, created_at, updated_at, name, \
             doc_schema, definition, hash, draft, disabled, version) \
             VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(millis(now))
        .bind(save.definition.name.clone())
        .bind(save.definition.schema.clone())
        .bind(definition.clone())
        .bind(hash.clone())
        .bind(i64::from(save.draft))
        .bind(i64::from(save.disabled))
        .bind(version)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() == 0 {
            return Err(TransformError::Conflict(
                "a workflow with this id was saved at the same time".into(),
            ));
        }
        if version == 1 {
            insert_version(&mut tx, workspace_id, id, 1, &hash, &save.definition, now).await?;
        }
        tx.commit().await?;
        let wf = Workflow {
            id,
            created_at: now,
            updated_at: now,
            definition: save.definition,
            hash,
            draft: save.draft,
            disabled: save.disabled,
            version,
        };
        Ok((wf, true))
    }

    /// Updates a workflow; unless it is saved as a draft, a changed definition is published as
    /// a new version (an unchanged one is not published again).
    pub async fn update_workflow(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        save: SaveWorkflow,
        max_steps: usize,
    ) -> TransformResult<Workflow> {
        let save = self.prepare(id, save, max_steps)?;
        let hash = save.definition.hash();
        let mut tx = self.store().begin_write().await?;
        let lock = match self.store().backend() {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 AND id = $2{lock}"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(TransformError::NotFound("workflow"))?;
        let mut wf = workflow(&row)?;
        let now = folio_store::now();
        if !save.draft {
            let latest: Option<String> = sqlx::query_scalar(
                "SELECT hash FROM transform_workflow_versions \
                 WHERE workspace_id = $1 AND workflow_id = $2 AND version = $3",
            )
            .bind(workspace_id.to_string())
            .bind(id.to_string())
            .bind(wf.version)
            .fetch_optional(&mut *tx)
            .await?;
            if latest.as_deref() != Some(hash.as_str()) {
                wf.version += 1;
                insert_version(
                    &mut tx,
                    workspace_id,
                    id,
                    wf.version,
                    &hash,
                    &save.definition,
                    now,
                )
                .await?;
            }
        }
        sqlx::query(
            "UPDATE transform_workflows SET updated_at = $3, name = $4, doc_schema = $5, \
             definition = $6, hash = $7, draft = $8, disabled = $9, version = $10 \
             WHERE workspace_id = $1 AND id = $2",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(millis(now))
        .bind(save.definition.name.clone())
        .bind(save.definition.schema.clone())
        .bind(serde_json::to_string(&save.definition)?)
        .bind(hash.clone())
        .bind(i64::from(save.draft))
        .bind(i64::from(save.disabled))
        .bind(wf.version)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        wf.updated_at = now;
        wf.definition = save.definition;
        wf.hash = hash;
        wf.draft = save.draft;
        wf.disabled = save.disabled;
        Ok(wf)
    }

    /// A workflow.
    pub async fn workflow(&self, workspace_id: Uuid, id: Uuid) -> TransformResult<Workflow> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 AND id = $2"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_optional(self.store().pool())
        .await?
        .ok_or(TransformError::NotFound("workflow"))?;
        workflow(&row)
    }

    /// The published versions of a workflow, oldest first.
    pub async fn workflow_versions(
        &self,
        workspace_id: Uuid,
        id: Uuid,
    ) -> TransformResult<Vec<WorkflowVersion>> {
        let rows = sqlx::query(
            "SELECT version, hash, name, created_at FROM transform_workflow_versions \
             WHERE workspace_id = $1 AND workflow_id = $2 ORDER BY version",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_all(self.store().pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(WorkflowVersion {
                    version: r.try_get("version")?,
                    hash: r.try_get("hash")?,
                    name: r.try_get("name")?,
                    created_at: from_millis(r.try_get("created_at")?),
                })
            })
            .collect()
    }

    /// Workflows created at or before `created_at`, newest first, optionally of one schema.
    /// A page never splits a millisecond: `next` is exact when sent back as `created_at`. When
    /// more than `limit` workflows share the boundary millisecond the page holds the whole group
    /// (longer than `limit`), as the silo's lists do, so none is skipped.
    pub async fn list_workflows(
        &self,
        workspace_id: Uuid,
        created_at: Option<DateTime<Utc>>,
        schema: Option<&str>,
        limit: i64,
    ) -> TransformResult<Page<Workflow>> {
        let before = created_at.map(millis).unwrap_or(i64::MAX);
        let mut items = self
            .workflows_between(workspace_id, (i64::MIN, before), schema, Some(limit + 1))
            .await?;
        let mut next = None;
        if items.len() as i64 > limit {
            let boundary = items[limit as usize].created_at;
            let keep = items.iter().take_while(|w| w.created_at > boundary).count();
            if keep > 0 {
                items.truncate(keep);
                next = Some((boundary, Uuid::nil()));
            } else {
                let at = millis(boundary);
                items = self
                    .workflows_between(workspace_id, (at, at), schema, None)
                    .await?;
                next = Some((boundary - chrono::Duration::milliseconds(1), Uuid::nil()));
            }
        }
        Ok(Page { items, next })
    }

    /// Workflows created within `[from, to]` (milliseconds), newest first.
    async fn workflows_between(
        &self,
        workspace_id: Uuid,
        (from, to): (i64, i64),
        schema: Option<&str>,
        limit: Option<i64>,
    ) -> TransformResult<Vec<Workflow>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 \
             AND created_at >= $2 AND created_at <= $3 AND ($4 = '' OR doc_schema = $4) \
             ORDER BY created_at DESC, id DESC LIMIT $5"
        ))
        .bind(workspace_id.to_string())
        .bind(from)
        .bind(to)
        .bind(schema.unwrap_or("").to_string())
        .bind(limit.unwrap_or(i64::MAX))
        .fetch_all(self.store().pool())
        .await?;
        rows.iter().map(workflow).collect()
    }

    /// The definition of a published version (cached: versions never change).
    pub(crate) async fn definition(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        version: i64,
    ) -> TransformResult<Arc<Definition>> {
        let key = (workspace_id, id, version);
        if let Some(def) = self
            .inner
            .definitions
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned())
        {
            return Ok(def);
        }
        let text: String = sqlx::query_scalar(
            "SELECT definition FROM transform_workflow_versions \
             WHERE workspace_id = $1 AND workflow_id = $2 AND version = $3",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(version)
        .fetch_optional(self.store().pool())
        .await?
        .ok_or(TransformError::NotFound("workflow version"))?;
        let def = Arc::new(serde_json::from_str::<Definition>(&text)?);
        if let Ok(mut m) = self.inner.definitions.lock() {
            m.insert(key, def.clone());
        }
        Ok(def)
    }
}

async fn insert_version(
    tx: &mut folio_store::WriteTx,
    workspace_id: Uuid,
    id: Uuid,
    version: i64,
    hash: &str,
    definition: &Definition,
    now: DateTime<Utc>,
) -> TransformResult<()> {
    sqlx::query(
        "INSERT INTO transform_workflow_versions \
         (workspace_id, workflow_id, version, hash, name, definition, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(workspace_id.to_string())
    .bind(id.to_string())
    .bind(version)
    .bind(hash.to_string())
    .bind(definition.name.clone())
    .bind(serde_json::to_string(definition)?)
    .bind(millis(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn workflow(row: &AnyRow) -> TransformResult<Workflow> {
    Ok(Workflow {
        id: rows::uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        definition: serde_json::from_str(&row.try_get::<String, _>("definition")?)?,
        hash: row.try_get("hash")?,
        draft: row.try_get::<i64, _>("draft")? != 0,
        disabled: row.try_get::<i64, _>("disabled")? != 0,
        version: row.try_get("version")?,
    })
}
