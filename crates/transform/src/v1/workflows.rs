//! `/transform/v1/workflows`: create (`PUT`), update (`PATCH`), fetch and list workflows.

use folio_api::page::Position;
use folio_api::{ApiResult, Caller, Ctx, Handle, Json, Path, Query, page, time};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::Transform;
use crate::model::{SaveWorkflow, Workflow, WorkflowQuery, WorkflowVersion};
use crate::workflow::{Definition, Next, Step};

/// A step of a workflow.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StepV1 {
    /// Unique in the workflow; generated when left out.
    #[serde(default)]
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The action: `silo.state`, `silo.folder`, `silo.close`, `silo.modify`, `webhook.send`,
    /// `transform.job.create`, `sleep`, `sequence.enumerate`, `ubl.generate`, `cii.generate`,
    /// `ubl.import`, `cii.import`, `pdf`, `cii.pdf.embed`, `cii.pdf.import`, `sdi-it.generate`,
    /// `sdi-it.import`, `verifactu.generate`, `gov-es.facturae.generate`, `gov-pl.generate`,
    /// `gov-pl.import`; the steps of Invopop's workflows that need a tax authority's service
    /// (`verifactu.send`, `sdi-it.send`, `gov-pl.send`...) are accepted and end the job `KO`.
    #[serde(default)]
    pub action: String,
    /// The action under the name Invopop's workflows give it; read when `action` is absent,
    /// and always written back equal to `action`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// One-line description shown in Invopop's console; kept as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The action's configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub config: Option<Value>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Seconds the step may take from its first run (retries and waits included, at most a
    /// week); a step still running then is stopped and ends `KO` with code `timeout`, which
    /// `next` rules match with status `TIMEOUT`. 0 means no limit; absent means the server's
    /// default (none unless configured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Routing after the step; the first matching rule wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Vec<NextV1>>,
}

/// A routing rule after a step.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NextV1 {
    /// `OK`, `SKIP`, `KO` or `TIMEOUT`; empty matches any outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Only match this outcome code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Steps to run; then the job carries on after the step that matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(no_recursion)]
    pub steps: Option<Vec<StepV1>>,
    /// Jump to this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    /// End the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<bool>,
}

/// The body of `PUT` (the whole workflow) and `PATCH` (what changes).
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct WorkflowIn {
    /// Name (required on `PUT`).
    #[serde(default)]
    #[schema(min_length = 1)]
    pub name: String,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Document type the workflow is for (`bill/invoice`).
    #[serde(default)]
    pub schema: Option<String>,
    /// Country code.
    #[serde(default)]
    pub country: Option<String>,
    /// Save without publishing a version.
    #[serde(default)]
    pub draft: Option<bool>,
    /// Refuse new jobs.
    #[serde(default)]
    pub disabled: Option<bool>,
    /// The main flow (at least one step; required on `PUT`).
    #[serde(default)]
    #[schema(min_items = 1)]
    pub steps: Vec<StepV1>,
    /// Steps run when a step fails and no `next` rule handles it.
    #[serde(default)]
    pub rescue: Option<Vec<StepV1>>,
}

/// A published version.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VersionV1 {
    /// Version number, as a string.
    pub version: String,
    /// Short sha256 of its definition.
    pub hash: String,
    /// Name when published.
    pub name: String,
    /// When published.
    pub created_at: String,
}

/// A workflow.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WorkflowOut {
    /// Id.
    pub id: Uuid,
    /// Created.
    pub created_at: String,
    /// Last saved.
    pub updated_at: String,
    /// Name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Document type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// The definition shown is an unpublished draft.
    pub draft: bool,
    /// New jobs are refused.
    pub disabled: bool,
    /// Latest published version (`"0"` when never published); new jobs run it.
    pub version: String,
    /// Short sha256 of the definition shown.
    pub hash: String,
    /// Main flow.
    pub steps: Vec<StepV1>,
    /// Rescue flow.
    pub rescue: Vec<StepV1>,
    /// Published versions, oldest first (on fetch by id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<Vec<VersionV1>>,
}

/// A page of workflows, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WorkflowList {
    /// The workflows.
    pub list: Vec<WorkflowOut>,
    /// Page size.
    pub limit: i64,
    /// Workflows created at or before this time were listed.
    pub created_at: String,
    /// Send back as `created_at` for the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_created_at: Option<String>,
    /// The cursor this page continued from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Send back as `cursor` for the next page (absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = page::cursor_schema)]
    pub next_cursor: Option<String>,
    /// The schema filter, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
}

/// Query of the workflow list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size (default 20, at most 100).
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// List workflows created at or before this time.
    #[param(schema_with = folio_api::time::query_schema)]
    created_at: Option<String>,
    /// Continue after this cursor (send `next_cursor` back here).
    #[param(schema_with = page::cursor_schema)]
    cursor: Option<String>,
    /// Only workflows for this document type.
    schema: Option<String>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(create, update, fetch))
        .routes(routes!(list))
}

/// Create a workflow.
///
/// Publishes version 1 unless `draft` is true. Repeating the same body returns the workflow;
/// a different body with the same id is 409. Unknown actions, `step_id`s that point nowhere,
/// loops and bad action configs are 422 with `fields`.
#[utoipa::path(put, path = "/transform/v1/workflows/{id}", operation_id = "transform.v1.workflows.put", tag = "workflows",
    params(("id" = Uuid, Path, description = "Workflow id")),
    request_body = WorkflowIn,
    responses((status = 200, description = "The workflow.", body = WorkflowOut),
        (status = 409, description = "Another workflow has this id.", body = folio_api::ErrorBody),
        (status = 422, description = "Invalid workflow.", body = folio_api::ErrorBody)))]
async fn create(
    caller: Caller,
    Handle(ctx): Handle<Ctx>,
    Handle(t): Handle<Transform>,
    Path(id): Path<Uuid>,
    Json(body): Json<WorkflowIn>,
) -> ApiResult<Json<WorkflowOut>> {
    let save = save_of(body);
    let (wf, _) = t
        .create_workflow(caller.scope(), id, save, ctx.limits().workflow_steps)
        .await?;
    let versions = t.workflow_versions(caller.scope(), id).await?;
    Ok(Json(out(wf, Some(versions))))
}

/// Update a workflow.
///
/// Fields left out keep their current values (`name` and `steps` too, so a client may send
/// only what changes, as Invopop's partial updates do). Unless `draft` is true, a changed
/// definition is published as a new version; jobs already created keep their version.
#[utoipa::path(patch, path = "/transform/v1/workflows/{id}", operation_id = "transform.v1.workflows.patch", tag = "workflows",
    params(("id" = Uuid, Path, description = "Workflow id")),
    request_body = WorkflowIn,
    responses((status = 200, description = "The workflow.", body = WorkflowOut),
        (status = 404, description = "No such workflow.", body = folio_api::ErrorBody),
        (status = 422, description = "Invalid workflow.", body = folio_api::ErrorBody)))]
async fn update(
    caller: Caller,
    Handle(ctx): Handle<Ctx>,
    Handle(t): Handle<Transform>,
    Path(id): Path<Uuid>,
    Json(body): Json<WorkflowIn>,
) -> ApiResult<Json<WorkflowOut>> {
    let current = t.workflow(caller.scope(), id).await?;
    let save = patched(body, current);
    let wf = t
        .update_workflow(caller.scope(), id, save, ctx.limits().workflow_steps)
        .await?;
    let versions = t.workflow_versions(caller.scope(), id).await?;
    Ok(Json(out(wf, Some(versions))))
}

/// Fetch a workflow.
///
/// With its published versions.
#[utoipa::path(get, path = "/transform/v1/workflows/{id}", operation_id = "transform.v1.workflows.fetch", tag = "workflows",
    params(("id" = Uuid, Path, description = "Workflow id")),
    responses((status = 200, description = "The workflow.", body = WorkflowOut),
        (status = 404, description = "No such workflow.", body = folio_api::ErrorBody)))]
async fn fetch(
    caller: Caller,
    Handle(t): Handle<Transform>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<WorkflowOut>> {
    let wf = t.workflow(caller.scope(), id).await?;
    let versions = t.workflow_versions(caller.scope(), id).await?;
    Ok(Json(out(wf, Some(versions))))
}

/// List workflows.
///
/// Newest first. Page by sending `next_cursor` back as `cursor` (or, as older clients do,
/// `next_created_at` back as `created_at`: such a page never splits workflows created in the
/// same millisecond, so it can end early or hold more than `limit`).
#[utoipa::path(get, path = "/transform/v1/workflows", operation_id = "transform.v1.workflows.list", tag = "workflows", params(ListQuery),
    responses((status = 200, description = "A page of workflows.", body = WorkflowList),
        (status = 422, description = "Bad query.", body = folio_api::ErrorBody)))]
async fn list(
    caller: Caller,
    Handle(t): Handle<Transform>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<WorkflowList>> {
    let limit = page::limit(q.limit)?;
    let created_at = page::created_at(q.created_at.as_deref())?;
    let cursor = q.cursor.filter(|c| !c.is_empty());
    let schema = q.schema.filter(|s| !s.is_empty());
    let list = WorkflowQuery {
        created_at,
        cursor: Position::param(cursor.as_deref())?,
        schema: schema.clone(),
        limit,
    };
    let page = t.list_workflows(caller.scope(), &list).await?;
    Ok(Json(WorkflowList {
        list: page.items.into_iter().map(|w| out(w, None)).collect(),
        limit,
        created_at: time::format(&created_at.unwrap_or_else(folio_store::now)),
        next_created_at: page.next_created_at.as_ref().map(time::format),
        cursor,
        next_cursor: page.next.map(Position::cursor),
        schema,
    }))
}

fn save_of(body: WorkflowIn) -> SaveWorkflow {
    SaveWorkflow {
        definition: Definition {
            name: body.name,
            description: body.description,
            schema: body.schema,
            country: body.country,
            steps: body.steps.into_iter().map(step_in).collect(),
            rescue: body
                .rescue
                .unwrap_or_default()
                .into_iter()
                .map(step_in)
                .collect(),
        },
        draft: body.draft.unwrap_or(false),
        disabled: body.disabled.unwrap_or(false),
    }
}

/// A `PATCH` body over the current workflow: what it leaves out stays as it is.
fn patched(body: WorkflowIn, current: Workflow) -> SaveWorkflow {
    let kept = current.definition;
    let steps = |given: Vec<StepV1>| given.into_iter().map(step_in).collect();
    SaveWorkflow {
        definition: Definition {
            name: Some(body.name)
                .filter(|n| !n.is_empty())
                .unwrap_or(kept.name),
            description: body.description.or(kept.description),
            schema: body.schema.or(kept.schema),
            country: body.country.or(kept.country),
            steps: match body.steps.is_empty() {
                true => kept.steps,
                false => steps(body.steps),
            },
            rescue: body.rescue.map(steps).unwrap_or(kept.rescue),
        },
        draft: body.draft.unwrap_or(false),
        disabled: body.disabled.unwrap_or(current.disabled),
    }
}

fn step_in(s: StepV1) -> Step {
    let action = match (s.action.is_empty(), s.provider) {
        (true, Some(provider)) => provider,
        _ => s.action,
    };
    Step {
        id: s.id,
        name: s.name,
        action,
        summary: s.summary,
        config: s.config,
        notes: s.notes,
        timeout: s.timeout,
        next: s
            .next
            .unwrap_or_default()
            .into_iter()
            .map(|n| Next {
                status: n.status,
                code: n.code,
                steps: n
                    .steps
                    .unwrap_or_default()
                    .into_iter()
                    .map(step_in)
                    .collect(),
                step_id: n.step_id,
                stop: n.stop.unwrap_or(false),
            })
            .collect(),
    }
}

fn step_out(s: Step) -> StepV1 {
    StepV1 {
        id: s.id,
        name: s.name,
        provider: Some(s.action.clone()),
        action: s.action,
        summary: s.summary,
        config: s.config,
        notes: s.notes,
        timeout: s.timeout,
        next: (!s.next.is_empty()).then(|| {
            s.next
                .into_iter()
                .map(|n| NextV1 {
                    status: n.status,
                    code: n.code,
                    steps: (!n.steps.is_empty())
                        .then(|| n.steps.into_iter().map(step_out).collect()),
                    step_id: n.step_id,
                    stop: n.stop.then_some(true),
                })
                .collect()
        }),
    }
}

fn out(wf: Workflow, versions: Option<Vec<WorkflowVersion>>) -> WorkflowOut {
    let d = wf.definition;
    WorkflowOut {
        id: wf.id,
        created_at: time::format(&wf.created_at),
        updated_at: time::format(&wf.updated_at),
        name: d.name,
        description: d.description,
        schema: d.schema,
        country: d.country,
        draft: wf.draft,
        disabled: wf.disabled,
        version: wf.version.to_string(),
        hash: wf.hash,
        steps: d.steps.into_iter().map(step_out).collect(),
        rescue: d.rescue.into_iter().map(step_out).collect(),
        versions: versions.map(|vs| {
            vs.into_iter()
                .map(|v| VersionV1 {
                    version: v.version.to_string(),
                    hash: v.hash,
                    name: v.name,
                    created_at: time::format(&v.created_at),
                })
                .collect()
        }),
    }
}
