//! `transform_workflow_versions` rows: the published, immutable definitions jobs run.

use folio_store::rows::json;
use folio_store::{Scope, Store, WriteTx, from_millis, millis};
use sqlx::Row;
use uuid::Uuid;

use crate::error::TransformResult;
use crate::model::WorkflowVersion;
use crate::workflow::Definition;

/// Publishes `definition` as version `v` of a workflow.
pub(crate) async fn insert(
    tx: &mut WriteTx,
    scope: Scope,
    workflow_id: Uuid,
    v: &WorkflowVersion,
    definition: &Definition,
) -> TransformResult<()> {
    let q = scope
        .query(
            "INSERT INTO transform_workflow_versions \
             (workspace_id, workflow_id, version, hash, name, definition, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(workflow_id.to_string())
        .bind(v.version)
        .bind(v.hash.clone())
        .bind(v.name.clone())
        .bind(serde_json::to_string(definition)?)
        .bind(millis(v.created_at));
    tx.write(q).await?;
    Ok(())
}

/// The hash of a version's definition; `None` when it was never published.
pub(crate) async fn hash(
    tx: &mut WriteTx,
    scope: Scope,
    workflow_id: Uuid,
    version: i64,
) -> TransformResult<Option<String>> {
    let row = scope
        .query(
            "SELECT hash FROM transform_workflow_versions \
             WHERE workspace_id = $1 AND workflow_id = $2 AND version = $3",
        )
        .bind(workflow_id.to_string())
        .bind(version)
        .fetch_optional(&mut *tx)
        .await?;
    Ok(row.map(|r| r.try_get("hash")).transpose()?)
}

/// The published versions of a workflow, oldest first.
pub(crate) async fn list(
    store: &Store,
    scope: Scope,
    workflow_id: Uuid,
) -> TransformResult<Vec<WorkflowVersion>> {
    let rows = scope
        .query(
            "SELECT version, hash, name, created_at FROM transform_workflow_versions \
             WHERE workspace_id = $1 AND workflow_id = $2 ORDER BY version",
        )
        .bind(workflow_id.to_string())
        .fetch_all(store.pool())
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

/// The definition of a published version.
pub(crate) async fn definition(
    store: &Store,
    scope: Scope,
    workflow_id: Uuid,
    version: i64,
) -> TransformResult<Option<Definition>> {
    let row = scope
        .query(
            "SELECT definition FROM transform_workflow_versions \
             WHERE workspace_id = $1 AND workflow_id = $2 AND version = $3",
        )
        .bind(workflow_id.to_string())
        .bind(version)
        .fetch_optional(store.pool())
        .await?;
    Ok(row.map(|r| json(&r, "definition")).transpose()?)
}
