//! The console's envelope list: filters and search words in one statement over the envelopes
//! and their current versions, keyset-paged on `(created_at, id)`.

use folio_store::{Scope, Store, millis};
use sqlx::Row;

use super::Statement;
use super::list::entries;
use super::rows::ENTRY_COLUMNS;
use super::search::{condition, field};
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
    let f = |path: &[&str]| field(backend, path);
    let sql = format!(
        "SELECT {ENTRY_COLUMNS}, {} AS b_series, {} AS b_code, {} AS b_supplier, \
         {} AS b_customer, {} AS b_currency, {} AS b_payable \
         FROM silo_envelopes e JOIN silo_versions v \
         ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
         WHERE e.workspace_id = $1{filters} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {count}",
        f(&["doc", "series"]),
        f(&["doc", "code"]),
        f(&["doc", "supplier", "name"]),
        f(&["doc", "customer", "name"]),
        f(&["doc", "currency"]),
        f(&["doc", "totals", "payable"]),
    );
    let rows = st.fetch_all(store, &sql).await?;
    let facts: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            let get = |c: &str| r.try_get::<String, _>(c).unwrap_or_default();
            [
                get("b_series"),
                get("b_code"),
                get("b_supplier"),
                get("b_customer"),
                get("b_currency"),
                get("b_payable"),
            ]
        })
        .collect();
    let list = entries(rows)?;
    Ok(list.into_iter().zip(facts).map(browsed).collect())
}

fn browsed(
    (entry, [series, code, supplier, customer, currency, payable]): (crate::Entry, [String; 6]),
) -> Browsed {
    let some = |s: String| (!s.is_empty()).then_some(s);
    let number = match (some(series), some(code)) {
        (Some(s), Some(c)) => Some(format!("{s}-{c}")),
        (s, c) => c.or(s),
    };
    Browsed {
        entry,
        number,
        supplier: some(supplier),
        customer: some(customer),
        currency: some(currency),
        payable: some(payable),
    }
}
