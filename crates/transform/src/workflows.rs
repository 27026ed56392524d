//! Saving, publishing, fetching and listing workflows.

use std::sync::Arc;

use folio_store::{Backend, Scope, WriteTx, millis};
use uuid::Uuid;

use crate::error::{TransformError, TransformResult};
use crate::model::{SaveWorkflow, Workflow, WorkflowQuery, WorkflowVersion};
use crate::workflow::Definition;
use crate::{Transform, db};
use folio_api::page::{Page, Position};

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
        scope: Scope,
        id: Uuid,
        save: SaveWorkflow,
        max_steps: usize,
    ) -> TransformResult<(Workflow, bool)> {
        let save = self.prepare(id, save, max_steps)?;
        let hash = save.definition.hash();
        let mut tx = self.store().begin_write().await?;
        if let Some(wf) = db::workflows::get(&mut tx, scope, id).await? {
            return if wf.hash == hash && wf.draft == save.draft && wf.disabled == save.disabled {
                Ok((wf, false))
            } else {
                Err(TransformError::Conflict(
                    "a different workflow already has this id".into(),
                ))
            };
        }
        let now = folio_store::now();
        let wf = Workflow {
            id,
            created_at: now,
            updated_at: now,
            definition: save.definition,
            hash,
            draft: save.draft,
            disabled: save.disabled,
            version: if save.draft { 0 } else { 1 },
        };
        if !db::workflows::insert(&mut tx, scope, &wf).await? {
            return Err(TransformError::Conflict(
                "a workflow with this id was saved at the same time".into(),
            ));
        }
        if wf.version == 1 {
            publish(&mut tx, scope, &wf).await?;
        }
        tx.commit().await?;
        Ok((wf, true))
    }

    /// Updates a workflow; unless it is saved as a draft, a changed definition is published as
    /// a new version (an unchanged one is not published again).
    pub async fn update_workflow(
        &self,
        scope: Scope,
        id: Uuid,
        save: SaveWorkflow,
        max_steps: usize,
    ) -> TransformResult<Workflow> {
        let save = self.prepare(id, save, max_steps)?;
        let hash = save.definition.hash();
        let mut tx = self.store().begin_write().await?;
        let postgres = self.store().backend() == Backend::Postgres;
        let mut wf = db::workflows::lock(&mut tx, postgres, scope, id)
            .await?
            .ok_or(TransformError::NotFound("workflow"))?;
        wf.updated_at = folio_store::now();
        wf.definition = save.definition;
        wf.hash = hash;
        wf.draft = save.draft;
        wf.disabled = save.disabled;
        if !wf.draft {
            // an unchanged definition is not published again
            let published = db::workflow_versions::hash(&mut tx, scope, id, wf.version).await?;
            if published.as_deref() != Some(wf.hash.as_str()) {
                wf.version += 1;
                publish(&mut tx, scope, &wf).await?;
            }
        }
        db::workflows::update(&mut tx, scope, &wf).await?;
        tx.commit().await?;
        Ok(wf)
    }

    /// A workflow.
    pub async fn workflow(&self, scope: Scope, id: Uuid) -> TransformResult<Workflow> {
        db::workflows::get(self.store().pool(), scope, id)
            .await?
            .ok_or(TransformError::NotFound("workflow"))
    }

    /// The published versions of a workflow, oldest first.
    pub async fn workflow_versions(
        &self,
        scope: Scope,
        id: Uuid,
    ) -> TransformResult<Vec<WorkflowVersion>> {
        db::workflow_versions::list(self.store(), scope, id).await
    }

    /// Workflows created at or before `created_at` and after `cursor`, newest first,
    /// optionally of one schema; `next` is the last one's place when more follow. Without a
    /// cursor a page never splits a millisecond, so `next_created_at` is exact when sent back
    /// as `created_at`: when more than `limit` workflows share the boundary millisecond the
    /// page holds the whole group (longer than `limit`), as the silo's lists do.
    pub async fn list_workflows(
        &self,
        scope: Scope,
        q: &WorkflowQuery,
    ) -> TransformResult<Page<Workflow>> {
        let store = self.store();
        let (limit, schema) = (q.limit.max(1), q.schema.as_deref());
        let before = q.created_at.map(millis).unwrap_or(i64::MAX);
        let after = q.cursor.map(|p| (millis(p.created_at), p.id));
        let mut items = db::workflows::between(
            store,
            scope,
            (i64::MIN, before),
            after,
            schema,
            Some(limit + 1),
        )
        .await?;
        let mut page = Page::default();
        if items.len() as i64 > limit {
            if q.cursor.is_some() {
                items.truncate(limit as usize);
            } else {
                let boundary = items[limit as usize].created_at;
                let keep = items.iter().take_while(|w| w.created_at > boundary).count();
                if keep > 0 {
                    items.truncate(keep);
                    page.next_created_at = Some(boundary);
                } else {
                    let at = millis(boundary);
                    items =
                        db::workflows::between(store, scope, (at, at), None, schema, None).await?;
                    page.next_created_at = Some(boundary - chrono::Duration::milliseconds(1));
                }
            }
            page.next = items.last().map(|w| Position {
                created_at: w.created_at,
                id: w.id,
            });
        }
        page.items = items;
        Ok(page)
    }

    /// The version of the workflow that this node last found runnable (see `create_job`).
    pub(crate) fn seen_version(&self, scope: Scope, id: Uuid) -> Option<i64> {
        let seen = self.inner.seen_versions.lock().ok()?;
        seen.get(&(scope, id)).copied()
    }

    /// Notes that `version` is the workflow's current version and the workflow enabled.
    pub(crate) fn saw_version(&self, scope: Scope, id: Uuid, version: i64) {
        if let Ok(mut seen) = self.inner.seen_versions.lock() {
            seen.insert((scope, id), version);
        }
    }

    /// The definition of a published version (cached: versions never change).
    pub(crate) async fn definition(
        &self,
        scope: Scope,
        id: Uuid,
        version: i64,
    ) -> TransformResult<Arc<Definition>> {
        let key = (scope, id, version);
        if let Some(def) = self
            .inner
            .definitions
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned())
        {
            return Ok(def);
        }
        let def = db::workflow_versions::definition(self.store(), scope, id, version)
            .await?
            .ok_or(TransformError::NotFound("workflow version"))?;
        let def = Arc::new(def);
        if let Ok(mut m) = self.inner.definitions.lock() {
            m.insert(key, def.clone());
        }
        Ok(def)
    }
}

/// Publishes the workflow's definition as its version `wf.version`.
async fn publish(tx: &mut WriteTx, scope: Scope, wf: &Workflow) -> TransformResult<()> {
    let version = WorkflowVersion {
        version: wf.version,
        hash: wf.hash.clone(),
        name: wf.definition.name.clone(),
        created_at: wf.updated_at,
    };
    db::workflow_versions::insert(tx, scope, wf.id, &version, &wf.definition).await
}
