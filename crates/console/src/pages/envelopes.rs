//! The envelope list: search, filters, keyset paging (through the silo's `browse`).

use axum::extract::{Query, State};
use axum::response::Response;
use chrono::{DateTime, NaiveDate, Utc};
use folio_api::page::Position;
use folio_silo::{BrowseQuery, Browsed, STATES};
use maud::{Markup, html};
use serde::Deserialize;

use crate::Console;
use crate::error::{Failure, encode};
use crate::i18n::Lang;
use crate::layout::{Page, Section, time};
use crate::session::Session;

/// Envelopes a page shows.
const PAGE_SIZE: i64 = 25;

/// Document types offered by the type filter.
const TYPES: &[&str] = &[
    "bill/invoice",
    "bill/payment",
    "bill/delivery",
    "bill/order",
    "note/message",
];

/// The list's query string.
#[derive(Debug, Default, Deserialize)]
pub struct ListParams {
    #[serde(default)]
    q: String,
    #[serde(default, rename = "type")]
    doc_type: String,
    #[serde(default)]
    state: String,
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    cursor: String,
}

impl ListParams {
    fn query(&self) -> Result<BrowseQuery, Failure> {
        let day = |text: &str, name: &str| -> Result<Option<NaiveDate>, Failure> {
            match text.trim() {
                "" => Ok(None),
                t => NaiveDate::parse_from_str(t, "%Y-%m-%d")
                    .map(Some)
                    .map_err(|_| Failure::bad_request(format!("{name}: not a date (YYYY-MM-DD)"))),
            }
        };
        let start = |d: NaiveDate| -> DateTime<Utc> {
            d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc()
        };
        let cursor = Position::param(Some(self.cursor.as_str()))?;
        let pick = |s: &str, allowed: &[&str]| allowed.contains(&s).then(|| s.to_owned());
        Ok(BrowseQuery {
            words: self.q.split_whitespace().map(str::to_lowercase).collect(),
            doc_type: pick(&self.doc_type, TYPES),
            state: pick(&self.state, &STATES),
            from: day(&self.from, "from")?.map(start),
            until: day(&self.to, "to")?.and_then(|d| d.succ_opt()).map(start),
            cursor,
            limit: PAGE_SIZE,
        })
    }

    /// This query string with another cursor.
    fn with_cursor(&self, cursor: &str) -> String {
        let pairs = [
            ("q", &self.q),
            ("type", &self.doc_type),
            ("state", &self.state),
            ("from", &self.from),
            ("to", &self.to),
        ];
        let mut out: Vec<String> = pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        if !cursor.is_empty() {
            out.push(format!("cursor={cursor}"));
        }
        format!("/console/envelopes?{}", out.join("&"))
    }
}

/// `GET /console/envelopes`.
pub async fn list(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Query(params): Query<ListParams>,
) -> Result<Response, Failure> {
    let query = params.query()?;
    let page = console.silo.browse(session.scope(), &query).await?;
    let next = page.next.map(Position::cursor);
    let content = html! {
        h1 { (lang.t("envelopes")) }
        (filters(lang, &params))
        (table(lang, &page.items))
        nav class="pager" aria-label="pages" {
            @if !params.cursor.is_empty() { a href=(params.with_cursor("")) { (lang.t("first_page")) } }
            @if let Some(next) = &next { a href=(params.with_cursor(next)) rel="next" id="next-page" { (lang.t("next_page")) } }
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Envelopes,
        title: lang.t("envelopes").to_owned(),
        script: None,
    }
    .render(content))
}

fn filters(lang: Lang, p: &ListParams) -> Markup {
    let t = |k| lang.t(k);
    let select = |name: &str, id: &str, label: &str, current: &str, options: &[&str]| {
        html! {
            div {
                label for=(id) { (label) }
                select id=(id) name=(name) {
                    option value="" { (t("any")) }
                    @for o in options { option value=(o) selected[*o == current] { (o) } }
                }
            }
        }
    };
    html! {
        form class="filters" method="get" action="/console/envelopes" role="search" {
            div {
                label for="q" { (t("search")) }
                input type="search" id="q" name="q" value=(p.q) placeholder=(t("search_help"));
            }
            (select("type", "type", t("type"), &p.doc_type, TYPES))
            (select("state", "state", t("state"), &p.state, &STATES))
            div { label for="from" { (t("from")) } input type="date" id="from" name="from" value=(p.from); }
            div { label for="to" { (t("to")) } input type="date" id="to" name="to" value=(p.to); }
            div { button type="submit" { (t("filter")) } }
        }
    }
}

fn table(lang: Lang, items: &[Browsed]) -> Markup {
    let t = |k| lang.t(k);
    if items.is_empty() {
        return html! { p id="empty" { (t("none_found")) } };
    }
    html! {
        div class="table-wrap" {
            table id="envelopes" {
                thead { tr {
                    th scope="col" { (t("number")) } th scope="col" { (t("supplier")) }
                    th scope="col" { (t("customer")) } th scope="col" class="num" { (t("payable")) }
                    th scope="col" { (t("type")) } th scope="col" { (t("state")) }
                    th scope="col" { (t("created")) }
                } }
                tbody {
                    @for b in items {
                        @let e = &b.entry;
                        tr {
                            td { a href={ "/console/envelopes/" (e.id) } {
                                (b.number.clone().or_else(|| e.key.clone()).unwrap_or_else(|| e.id.to_string()))
                            } }
                            td { (b.supplier.as_deref().unwrap_or("")) }
                            td { (b.customer.as_deref().unwrap_or("")) }
                            td class="num" { (b.payable.as_deref().unwrap_or("")) " " (b.currency.as_deref().unwrap_or("")) }
                            td { (e.typ()) }
                            td { (e.state.as_deref().unwrap_or("")) }
                            td { time datetime=(e.created_at.to_rfc3339()) { (time(&e.created_at)) } }
                        }
                    }
                }
            }
        }
    }
}
