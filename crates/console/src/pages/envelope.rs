//! One envelope: summary, PDF, GOBL JSON, attachments, state history, versions, jobs.

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use folio_silo::{Entry, FileInfo, State as EnvState};
use maud::{Markup, html};
use serde_json::Value;
use uuid::Uuid;

use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section, time};
use crate::session::Session;
use crate::summary::Summary;

/// The attachment key the `pdf` step gives the PDF it renders.
const PDF_KEY: &str = "pdf";

/// The newest jobs of the envelope its page lists.
const JOBS_SHOWN: i64 = 20;

/// `GET /console/envelopes/{id}`.
pub async fn show(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Path(id): Path<Uuid>,
) -> Result<Response, Failure> {
    let ws = session.scope();
    // three reads at once (the page waits for the slowest, not for their sum), the fewest
    // statements that hold it: on SQLite each is a hop to a connection's thread and back, which
    // costs more than the page's own work. `get` answers 404 for the workspace's strangers.
    let (entry, history, jobs) = tokio::try_join!(
        async { Ok::<_, Failure>(console.silo.get(ws, id).await?) },
        async { Ok(console.silo.history(ws, id).await?) },
        async {
            Ok(console
                .transform
                .jobs_of_envelope(ws, id, JOBS_SHOWN)
                .await?)
        },
    )?;
    let envelope: Value = entry
        .data
        .as_deref()
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or(Value::Null);
    let jobs_table = super::jobs::table(&console, ws, lang, &jobs).await;
    let summary = Summary::of(&envelope);
    let title = summary.number.clone().unwrap_or_else(|| id.to_string());
    let pretty = serde_json::to_string_pretty(&envelope).unwrap_or_default();
    let content = html! {
        h1 { (lang.t("envelope")) " " (title) }
        div class="grid" {
            section class="panel" aria-labelledby="summary-h" {
                h2 id="summary-h" { (lang.t("summary")) }
                (summary_list(lang, &entry, &summary))
            }
            @if has_pdf(&entry) {
                section aria-labelledby="pdf-h" {
                    h2 id="pdf-h" { (lang.t("pdf")) }
                    iframe class="pdf" id="pdf" src={ "/console/envelopes/" (id) "/pdf" } title=(lang.t("pdf_title")) {}
                    p { a href={ "/console/envelopes/" (id) "/pdf" } target="_blank" rel="noopener" { (lang.t("open_pdf")) } }
                }
            }
        }
        (faults(lang, &entry))
        details id="gobl" {
            summary { (lang.t("gobl_json")) }
            pre { code { (pretty) } }
        }
        (attachments(lang, id, &entry.attachments))
        (state_history(lang, &history.states))
        (version_list(lang, &history.versions))
        section aria-labelledby="jobs-h" {
            h2 id="jobs-h" { (lang.t("jobs")) }
            (jobs_table)
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Envelopes,
        title,
        script: None,
    }
    .render(content))
}

fn summary_list(lang: Lang, entry: &Entry, s: &Summary) -> Markup {
    let t = |k| lang.t(k);
    let rows: [(&str, Option<String>); 11] = [
        ("number", s.number.clone()),
        ("type", Some(entry.typ().to_owned())),
        ("state", entry.state.clone()),
        ("supplier", s.supplier.clone()),
        ("customer", s.customer.clone()),
        ("issue_date", s.issue_date.clone()),
        ("currency", s.currency.clone()),
        ("sum", s.sum.clone()),
        ("tax", s.tax.clone()),
        ("payable", s.payable.clone()),
        (
            "signed",
            Some(t(if entry.signed { "yes" } else { "no" }).to_owned()),
        ),
    ];
    html! {
        dl class="summary" {
            @for (key, value) in rows {
                @if let Some(value) = value { dt { (t(key)) } dd data-field=(key) { (value) } }
            }
            dt { (t("id")) } dd { code { (entry.id) } }
            @if let Some(key) = &entry.key { dt { (t("key")) } dd { (key) } }
            dt { (t("created")) } dd { (time(&entry.created_at)) }
        }
    }
}

fn faults(lang: Lang, entry: &Entry) -> Markup {
    html! {
        @if !entry.faults.is_empty() {
            section aria-labelledby="faults-h" {
                h2 id="faults-h" { (lang.t("faults")) }
                ul { @for f in &entry.faults { li { code { (f.code) } " " (f.message) " " span class="muted" { (f.paths.join(", ")) } } } }
            }
        }
    }
}

fn attachments(lang: Lang, id: Uuid, files: &[FileInfo]) -> Markup {
    let t = |k| lang.t(k);
    html! {
        section aria-labelledby="files-h" {
            h2 id="files-h" { (t("attachments")) }
            @if files.is_empty() { p class="muted" { (t("none_found")) } }
            @else {
                ul id="attachments" {
                    @for f in files {
                        li {
                            a href={ "/console/envelopes/" (id) "/files/" (f.id) } download=(f.name) { (f.name) }
                            " " span class="muted" { (f.mime) ", " (f.size) " B" }
                        }
                    }
                }
            }
        }
    }
}

fn state_history(lang: Lang, states: &[EnvState]) -> Markup {
    let t = |k| lang.t(k);
    html! {
        section aria-labelledby="states-h" {
            h2 id="states-h" { (t("states")) }
            @if states.is_empty() { p class="muted" { (t("none_found")) } }
            @else {
                div class="table-wrap" { table id="states" {
                    thead { tr { th scope="col" { (t("state")) } th scope="col" { (t("created")) } th scope="col" { (t("source")) } th scope="col" { (t("notes")) } } }
                    tbody { @for s in states { tr {
                        td { (s.key) }
                        td { (time(&s.created_at)) }
                        td { (source(s)) }
                        td { (s.notes.as_deref().unwrap_or("")) }
                    } } }
                } }
            }
        }
    }
}

/// Where a state came from: a job of transform links to the job's page (the jobs that ran on
/// the envelope are found this way).
fn source(s: &EnvState) -> Markup {
    match (s.src.as_deref(), s.src_id.as_deref()) {
        (Some("transform"), Some(job)) => {
            html! { a href={ "/console/jobs/" (job) } { (lang_free_job(job)) } }
        }
        (src, _) => html! { (src.unwrap_or("")) },
    }
}

fn lang_free_job(job: &str) -> String {
    format!("job {}", job.get(..8).unwrap_or(job))
}

fn version_list(lang: Lang, versions: &[(String, DateTime<Utc>)]) -> Markup {
    let t = |k| lang.t(k);
    html! {
        section aria-labelledby="versions-h" {
            h2 id="versions-h" { (t("versions")) }
            ol id="versions" { @for (v, at) in versions { li { code { (v) } " " span class="muted" { (time(at)) } } } }
        }
    }
}

/// `GET /console/envelopes/{id}/pdf`: the PDF the `pdf` step attached, or else one rendered now
/// in the console's language (not stored).
pub async fn pdf(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Path(id): Path<Uuid>,
) -> Result<Response, Failure> {
    let ws = session.scope();
    let entry = console.silo.get(ws, id).await?;
    let bytes = match attached_pdf(&entry) {
        Some(file) => console.silo.get_file(ws, id, file.id).await?.1.to_vec(),
        None => render(&entry, lang).await?,
    };
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("inline"),
    );
    Ok(response)
}

/// The PDF attached to the envelope (key `pdf`), newest first.
fn attached_pdf(entry: &Entry) -> Option<&FileInfo> {
    entry
        .attachments
        .iter()
        .rev()
        .find(|f| f.key.as_deref() == Some(PDF_KEY) && f.mime == "application/pdf")
}

/// Whether the envelope has a PDF to show: one attached, or an invoice to render.
fn has_pdf(entry: &Entry) -> bool {
    attached_pdf(entry).is_some() || entry.typ() == "bill/invoice"
}

async fn render(entry: &Entry, lang: Lang) -> Result<Vec<u8>, Failure> {
    let data: Value = entry
        .data
        .as_deref()
        .and_then(|d| serde_json::from_str(d).ok())
        .ok_or_else(|| Failure::internal("the envelope's data does not read"))?;
    let options = folio_pdf::Options {
        locale: Some(lang.code().to_owned()),
        ..folio_pdf::Options::default()
    };
    match tokio::task::spawn_blocking(move || folio_pdf::render(&data, &options)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => Err(Failure::Api(folio_api::ApiError::validation(format!(
            "no PDF for this envelope: {e}"
        )))),
        Err(e) => Err(Failure::internal(e)),
    }
}

/// `GET /console/envelopes/{id}/files/{file}`: an attachment, as a download.
pub async fn file(
    State(console): State<Console>,
    session: Session,
    Path((id, file)): Path<(Uuid, Uuid)>,
) -> Result<Response, Failure> {
    let (info, bytes) = console.silo.get_file(session.scope(), id, file).await?;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    let mime = HeaderValue::from_str(&info.mime)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    headers.insert(header::CONTENT_TYPE, mime);
    let safe: String = info
        .name
        .chars()
        .filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\')
        .collect();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}
