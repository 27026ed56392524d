//! Workflows: the list, one workflow's steps, and running it on an envelope.

use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use folio_transform::model::NewJob;
use folio_transform::workflow::Step;
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section, csrf_field, time};
use crate::session::Session;

/// Workflows the list shows.
const LIMIT: i64 = 100;

/// `GET /console/workflows`.
pub async fn list(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
) -> Result<Response, Failure> {
    let t = |k| lang.t(k);
    let page = console
        .transform
        .list_workflows(
            session.scope(),
            &folio_transform::model::WorkflowQuery {
                limit: LIMIT,
                ..Default::default()
            },
        )
        .await?;
    let content = html! {
        h1 { (t("workflows")) }
        @if page.items.is_empty() { p { (t("none_found")) } }
        @else {
            div class="table-wrap" { table id="workflows" {
                thead { tr { th scope="col" { (t("name")) } th scope="col" { (t("version")) } th scope="col" { (t("steps")) } th scope="col" { (t("created")) } } }
                tbody { @for w in &page.items { tr {
                    td {
                        a href={ "/console/workflows/" (w.id) } { (w.definition.name) }
                        @if w.draft { " " span class="muted" { "(" (t("draft")) ")" } }
                        @if w.disabled { " " span class="muted" { "(" (t("disabled")) ")" } }
                    }
                    td { (w.version) }
                    td { (w.definition.steps.len()) }
                    td { (time(&w.created_at)) }
                } } }
            } }
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Workflows,
        title: t("workflows").to_owned(),
        script: None,
    }
    .render(content))
}

/// Query of the workflow page: the envelope to offer in the run form.
#[derive(Deserialize, Default)]
pub struct ShowParams {
    #[serde(default)]
    envelope: String,
}

/// `GET /console/workflows/{id}`.
pub async fn show(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Path(id): Path<Uuid>,
    axum::extract::Query(params): axum::extract::Query<ShowParams>,
) -> Result<Response, Failure> {
    let t = |k| lang.t(k);
    let w = console.transform.workflow(session.scope(), id).await?;
    let def = &w.definition;
    let content = html! {
        h1 { (t("workflow")) " " (def.name) }
        @if let Some(d) = &def.description { p { (d) } }
        h2 { (t("steps")) }
        (steps(lang, &def.steps))
        @if !def.rescue.is_empty() { h2 { "rescue" } (steps(lang, &def.rescue)) }
        h2 { (t("run_on")) }
        form class="stack" method="post" action={ "/console/workflows/" (w.id) "/run" } {
            (csrf_field(&session))
            div {
                label for="envelope" { (t("envelope_id")) }
                input type="text" id="envelope" name="envelope" value=(params.envelope) required
                    pattern="[0-9a-fA-F-]{32,36}" autocomplete="off";
            }
            button type="submit" id="run" { (t("run")) }
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Workflows,
        title: def.name.clone(),
        script: None,
    }
    .render(content))
}

fn steps(lang: Lang, list: &[Step]) -> Markup {
    html! {
        ol class="steps" {
            @for s in list {
                li {
                    strong { (s.name.as_deref().unwrap_or(&s.action)) } " "
                    span class="muted" { (lang.t("action")) " " code { (s.action) } }
                    @if let Some(summary) = &s.summary { " — " (summary) }
                    @if let Some(config) = &s.config { details { summary { "config" } pre { code { (serde_json::to_string_pretty(config).unwrap_or_default()) } } } }
                    @for next in &s.next { @if !next.steps.is_empty() {
                        div class="muted" { (next.status.as_deref().unwrap_or("*")) " →" }
                        (steps(lang, &next.steps))
                    } }
                }
            }
        }
    }
}

/// The run form.
#[derive(Deserialize)]
pub struct RunForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    envelope: String,
}

/// `POST /console/workflows/{id}/run`: a job on the envelope; its page follows it.
pub async fn run(
    State(console): State<Console>,
    session: Session,
    Path(id): Path<Uuid>,
    Form(form): Form<RunForm>,
) -> Result<Response, Failure> {
    session.check_csrf(&form.csrf)?;
    let envelope = Uuid::parse_str(form.envelope.trim())
        .map_err(|_| Failure::bad_request("envelope: not an envelope id"))?;
    let ws = session.scope();
    // another workspace's envelope is not found here, as everywhere
    console.silo.exists(ws, envelope).await?;
    let new = NewJob {
        id: Uuid::now_v7(),
        workflow_id: id,
        silo_entry_id: Some(envelope),
        ..NewJob::default()
    };
    let (job, _) = console.transform.create_job(ws, new).await?;
    Ok(Redirect::to(&format!("/console/jobs/{}", job.id)).into_response())
}
