//! The console's envelope list: filters and search words in one statement over the envelopes,
//! whose rows carry each one's headline facts, keyset-paged on `(created_at, id)`.

use folio_store::{Scope, Store, millis};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Statement;
use super::list::entries;
use super::rows::ENTRY_COLUMNS;
use super::search::{Matched, matched};
use crate::SiloResult;
use crate::query::{BrowseQuery, Browsed};

/// Up to `count` envelopes matching `q`, newest first, with their headline facts.
pub(crate) async fn page(
    store: &Store,
    ws: Scope,
    q: &BrowseQuery,
    count: i64,
) -> SiloResult<Vec<Browsed>> {
    let mut st = Statement::scoped(ws);
    let matched = if q.words.is_empty() {
        None
    } else {
        match matched(store, &mut st, &q.words).await? {
            Some(m) => Some(m),
            None => return Ok(Vec::new()),
        }
    };
    let sql = page_sql(&mut st, q, matched.as_ref(), count);
    let rows = st.fetch_all(store, &sql).await?;
    let facts: Vec<Facts> = rows.iter().map(facts).collect::<Result<_, _>>()?;
    let list = entries(rows)?;
    Ok(list.into_iter().zip(facts).map(browsed).collect())
}

/// The statement of [`page`] (tests read its query plan).
pub(super) fn page_sql(
    st: &mut Statement,
    q: &BrowseQuery,
    matched: Option<&Matched>,
    count: i64,
) -> String {
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
        filters += &format!(
            " AND e.created_at <= {t} \
             AND (e.created_at < {t} OR (e.created_at = {t} AND e.id < {i}))"
        );
    }
    let from = match matched {
        Some(m) => {
            filters += &format!(" AND {}", m.condition);
            m.from.as_str()
        }
        None => "silo_envelopes e",
    };
    format!(
        "SELECT {ENTRY_COLUMNS}, {FACT_COLUMNS} FROM {from} WHERE e.workspace_id = $1{filters} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {count}"
    )
}

/// The headline facts a row shows, stored with each version (see `summary.rs`).
const FACT_COLUMNS: &str = "e.number, e.supplier, e.customer, e.currency, e.payable";

/// [`FACT_COLUMNS`] of a row, in that order.
type Facts = [Option<String>; 5];

fn facts(row: &AnyRow) -> Result<Facts, sqlx::Error> {
    Ok([
        row.try_get("number")?,
        row.try_get("supplier")?,
        row.try_get("customer")?,
        row.try_get("currency")?,
        row.try_get("payable")?,
    ])
}

fn browsed(
    (entry, [number, supplier, customer, currency, payable]): (crate::Entry, Facts),
) -> Browsed {
    Browsed {
        entry,
        number,
        supplier,
        customer,
        currency,
        payable,
    }
}
