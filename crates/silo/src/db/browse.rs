//! The console's envelope list: filters and search words in one statement over the envelopes
//! and their current versions, keyset-paged on `(created_at, id)`.

use folio_store::{Backend, Scope, Store, millis};
use sqlx::Row;

use super::Statement;
use super::list::entries;
use super::rows::ENTRY_COLUMNS;
use super::search::condition;
use crate::SiloResult;
use crate::query::{BrowseQuery, Browsed};

/// Up to `count` envelopes matching `q`, newest first, with their headline facts.
pub(crate) async fn page(
    store: &Store,
    ws: Scope,
    q: &BrowseQuery,
    count: i64,
) -> SiloResult<Vec<Browsed>> {
    let backend = store.backend();
    let mut st = Statement::scoped(ws);
    let mut filters = String::new();
    if let Some(t) = &q.doc_type {
        filters += &format!(" AND e.doc_schema LIKE {}", st.bind(format!("%/{t}")));
    }
    if let Some(state) = &q.state {
        filters += &format!(" AND e.state = {}", st.bind(state.clone()));
    }
    if let Some(from) = q.from {
        filters += &format!(" AND e.created_at >= {}", st.bind(millis(from)));
    }
    if let Some(until) = q.until {
        filters += &format!(" AND e.created_at < {}", st.bind(millis(until)));
    }
    if let Some(p) = q.cursor {
        let (t, i) = (st.bind(millis(p.created_at)), st.bind(p.id.to_string()));
        filters += &format!(" AND (e.created_at < {t} OR (e.created_at = {t} AND e.id < {i}))");
    }
    if !q.words.is_empty() {
        filters += &format!(" AND {}", condition(backend, &mut st, &q.words));
    }
    let sql = format!(
        "SELECT {ENTRY_COLUMNS}, {} AS b_facts \
         FROM silo_envelopes e JOIN silo_versions v \
         ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
         WHERE e.workspace_id = $1{filters} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {count}",
        facts(backend),
    );
    let rows = st.fetch_all(store, &sql).await?;
    let facts: Vec<[String; 6]> = rows
        .iter()
        .map(|r| read_facts(&r.try_get::<String, _>("b_facts").unwrap_or_default()))
        .collect();
    let list = entries(rows)?;
    Ok(list.into_iter().zip(facts).map(browsed).collect())
}

/// The headline facts a row shows, in this order.
const FACTS: [&[&str]; 6] = [
    &["doc", "series"],
    &["doc", "code"],
    &["doc", "supplier", "name"],
    &["doc", "customer", "name"],
    &["doc", "currency"],
    &["doc", "totals", "payable"],
];

/// [`FACTS`] of the current version as one JSON array, reading the document once a row:
/// SQLite's `json_extract` takes every path in one call (six calls parse the data six times,
/// most of the page's time); PostgreSQL reads them from one `jsonb` value.
fn facts(backend: Backend) -> String {
    match backend {
        Backend::Sqlite => {
            let paths: Vec<String> = FACTS
                .iter()
                .map(|p| format!("'$.{}'", p.join(".")))
                .collect();
            format!("json_extract(v.data, {})", paths.join(", "))
        }
        Backend::Postgres => {
            let paths: Vec<String> = FACTS
                .iter()
                .map(|p| format!("'{{{}}}'", p.join(",")))
                .collect();
            let each: Vec<String> = paths.iter().map(|p| format!("d #>> {p}")).collect();
            format!(
                "(SELECT json_build_array({})::text FROM (SELECT v.data::jsonb AS d) doc)",
                each.join(", ")
            )
        }
    }
}

/// The six facts from their JSON array: strings as they are, other values as JSON, nothing
/// as empty.
fn read_facts(array: &str) -> [String; 6] {
    let values: Vec<serde_json::Value> = serde_json::from_str(array).unwrap_or_default();
    std::array::from_fn(|i| match values.get(i) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    })
}

fn browsed(
    (entry, [series, code, supplier, customer, currency, payable]): (crate::Entry, [String; 6]),
) -> Browsed {
    let some = |s: String| (!s.is_empty()).then_some(s);
    let number = some(gobl::bill::series_code(&series, &code));
    Browsed {
        entry,
        number,
        supplier: some(supplier),
        customer: some(customer),
        currency: some(currency),
        payable: some(payable),
    }
}
