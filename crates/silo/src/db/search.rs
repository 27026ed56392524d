//! Free-text search over a workspace's envelopes: the key, the document's series-code, and
//! both parties' names and tax ids. PostgreSQL answers with its own text search (`to_tsvector`
//! / `plainto_tsquery` in the `simple` configuration: no stemming, which suits codes and
//! names); SQLite has none built in, so there every word of the query must appear in those
//! fields (case-insensitive `LIKE`). Both read each envelope's current version.

use folio_store::{Backend, Scope, Store};
use uuid::Uuid;

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
pub(super) fn field(backend: Backend, path: &[&str]) -> String {
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

/// What a search matches.
pub(crate) struct Found<'a> {
    /// Every one must match (lowercase).
    pub words: &'a [String],
    /// Only this folder.
    pub folder: Option<&'a str>,
    /// Only envelopes strictly after this `(created_at ms, id)` in the newest-first order.
    pub after: Option<(i64, Uuid)>,
}

/// Envelopes (without data and files) that are [`Found`], newest first.
pub(crate) async fn matching(
    store: &Store,
    ws: Scope,
    found: &Found<'_>,
    limit: i64,
    offset: i64,
) -> SiloResult<Vec<Entry>> {
    let Found {
        words,
        folder,
        after,
    } = *found;
    let mut st = Statement::scoped(ws);
    let matches = condition(store.backend(), &mut st, words);
    let folder = folder
        .map(|f| format!(" AND e.folder = {}", st.bind(f.to_owned())))
        .unwrap_or_default();
    let after = after
        .map(|(ms, id)| {
            let (t, i) = (st.bind(ms), st.bind(id.to_string()));
            format!(" AND (e.created_at < {t} OR (e.created_at = {t} AND e.id < {i}))")
        })
        .unwrap_or_default();
    let sql = format!(
        "SELECT {ENTRY_COLUMNS} FROM silo_envelopes e JOIN silo_versions v \
         ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
         WHERE e.workspace_id = $1{folder}{after} AND {matches} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {} OFFSET {}",
        limit.max(1),
        offset.max(0)
    );
    entries(st.fetch_all(store, &sql).await?)
}

/// The SQL condition (over `v`, the current version) true when every one of `words` matches.
pub(super) fn condition(backend: Backend, st: &mut Statement, words: &[String]) -> String {
    let text = haystack(backend);
    match backend {
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
    }
}

/// A word as a `LIKE` pattern's literal part (`%` and `_` match themselves).
fn escape(word: &str) -> String {
    word.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
