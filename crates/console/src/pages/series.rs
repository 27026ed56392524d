//! Series (sequence/v1): each with its last number and the next.

use axum::extract::State;
use axum::response::Response;
use maud::html;

use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section, time};
use crate::session::Session;

/// `GET /console/series`.
pub async fn list(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
) -> Result<Response, Failure> {
    let t = |k| lang.t(k);
    let series = console.sequence.list_series(session.scope()).await?;
    let content = html! {
        h1 { (t("series")) }
        @if series.is_empty() { p { (t("none_found")) } }
        @else {
            div class="table-wrap" { table id="series" {
                thead { tr {
                    th scope="col" { (t("name")) } th scope="col" { (t("last_number")) }
                    th scope="col" { (t("next_number")) } th scope="col" { (t("created")) }
                } }
                tbody { @for s in &series { tr {
                    td { (s.def.name) @if let Some(d) = &s.def.description { br; span class="muted" { (d) } } }
                    td { code { (s.last_index.map(|i| s.code_at(i)).unwrap_or_default()) } }
                    td { code { (s.code_at(s.next_index())) } }
                    td { (time(&s.created_at)) }
                } } }
            } }
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Series,
        title: t("series").to_owned(),
        script: None,
    }
    .render(content))
}
