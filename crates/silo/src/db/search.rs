//! Free-text search over a workspace's envelopes: the key, the document's series-code, and
//! both parties' names and tax ids. PostgreSQL answers with its own text search (`to_tsvector`
//! / `plainto_tsquery` in the `simple` configuration: no stemming, which suits codes and
//! names); SQLite has none built in, so there every word of the query must appear in those
//! fields (case-insensitive `LIKE`). Both read each envelope's current version.

use folio_store::{Backend, Scope, Store};

use super::Statement;
use super::list::entries;
use super::rows::ENTRY_COLUMNS;
use crate::{Entry, SiloResult};

/// The fields searched, as JSON paths into the envelope.
const FIELDS: &[&[&str]] = &[
    &["doc", "series"],
    &["doc", "code"],
    &["doc", "supplier", "name"],
    &["doc", "supplier", "tax_id", "code"],
    &["doc", "customer", "name"],
    &["doc", "customer", "tax_id", "code"],
];

/// Pairs also searched joined, as invoices print them: series-code and country+tax id.
const JOINED: &[(&[&str], &str, &[&str])] = &[
    (&["doc", "series"], "-", &["doc", "code"]),
    (
        &["doc", "supplier", "tax_id", "country"],
        "",
        &["doc", "supplier", "tax_id", "code"],
    ),
    (
        &["doc", "customer", "tax_id", "country"],
        "",
        &["doc", "customer", "tax_id", "code"],
    ),
];

/// One field of the current version's data, as SQL text ('' when absent).
fn field(backend: Backend, path: &[&str]) -> String {
    let get = match backend {
        Backend::Postgres => format!("v.data::jsonb #>> '{{{}}}'", path.join(",")),
        Backend::Sqlite => format!("json_extract(v.data, '$.{}')", path.join(".")),
    };
    format!("coalesce({get}, '')")
}

/// Everything searched, as one SQL text expression.
fn haystack(backend: Backend) -> String {
    let mut parts = vec!["coalesce(e.key, '')".to_string()];
    parts.extend(FIELDS.iter().map(|p| field(backend, p)));
    for (a, sep, b) in JOINED {
        parts.push(format!(
            "{} || '{sep}' || {}",
            field(backend, a),
            field(backend, b)
        ));
    }
    parts.join(" || ' ' || ")
}

/// Envelopes (without data and files) matching every one of `words` (lowercase), newest first.
pub(crate) async fn matching(
    store: &Store,
    ws: Scope,
    words: &[String],
    folder: Option<&str>,
    limit: i64,
    offset: i64,
) -> SiloResult<Vec<Entry>> {
    let backend = store.backend();
    let mut st = Statement::scoped(ws);
    let text = haystack(backend);
    let matches = match backend {
        Backend::Postgres => format!(
            "to_tsvector('simple', {text}) @@ plainto_tsquery('simple', {})",
            st.bind(words.join(" "))
        ),
        Backend::Sqlite => words
            .iter()
            .map(|w| {
                format!(
                    "lower({text}) LIKE {} ESCAPE '\\'",
                    st.bind(format!("%{}%", escape(w)))
                )
            })
            .collect::<Vec<_>>()
            .join(" AND "),
    };
    let folder = folder
        .map(|f| format!(" AND e.folder = {}", st.bind(f.to_owned())))
        .unwrap_or_default();
    let sql = format!(
        "SELECT {ENTRY_COLUMNS} FROM silo_envelopes e JOIN silo_versions v \
         ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
         WHERE e.workspace_id = $1{folder} AND {matches} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {} OFFSET {}",
        limit.max(1),
        offset.max(0)
    );
    entries(st.fetch_all(store, &sql).await?)
}

/// A word as a `LIKE` pattern's literal part (`%` and `_` match themselves).
fn escape(word: &str) -> String {
    word.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
