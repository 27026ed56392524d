//! Free-text search over a workspace's envelopes: the key, the document's series-code, and
//! both parties' names and tax ids. PostgreSQL answers with its own text search (`to_tsvector`
//! / `plainto_tsquery` in the `simple` configuration: no stemming, which suits codes and
//! names); SQLite has none built in, so there every word of the query must appear in those
//! fields (case-insensitive `LIKE`). Both read each envelope's current version.

use folio_store::Backend;
use sqlx::any::AnyArguments;
use uuid::Uuid;

use crate::rows::{self, ENTRY_COLUMNS};
use crate::{Entry, Silo, SiloError, SiloResult};

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

impl Silo {
    /// Envelopes (without data, with attachments) matching every word of `q`, newest first.
    pub async fn search(
        &self,
        workspace_id: Uuid,
        q: &str,
        folder: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> SiloResult<Vec<Entry>> {
        let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
        if words.is_empty() {
            return Err(SiloError::invalid("q", "required"));
        }
        let backend = self.store().backend();
        let mut args = AnyArguments::default();
        let mut bind = |value: String| -> String {
            use sqlx::Arguments as _;
            let _ = args.add(value);
            format!("${}", args.len())
        };
        let workspace = bind(workspace_id.to_string());
        let text = haystack(backend);
        let matches = match backend {
            Backend::Postgres => format!(
                "to_tsvector('simple', {text}) @@ plainto_tsquery('simple', {})",
                bind(words.join(" "))
            ),
            Backend::Sqlite => words
                .iter()
                .map(|w| {
                    format!(
                        "lower({text}) LIKE {} ESCAPE '\\'",
                        bind(format!("%{}%", escape(w)))
                    )
                })
                .collect::<Vec<_>>()
                .join(" AND "),
        };
        let folder = folder
            .map(|f| format!(" AND e.folder = {}", bind(f.to_string())))
            .unwrap_or_default();
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM silo_envelopes e JOIN silo_versions v \
             ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
             WHERE e.workspace_id = {workspace}{folder} AND {matches} \
             ORDER BY e.created_at DESC, e.id DESC LIMIT {} OFFSET {}",
            limit.max(1),
            offset.max(0)
        );
        let rows = sqlx::query_with(&sql, args)
            .fetch_all(self.store().pool())
            .await?;
        let mut entries: Vec<Entry> = rows
            .iter()
            .map(|r| rows::entry(r).map(|(e, _)| e))
            .collect::<Result<_, _>>()?;
        self.attach(workspace_id, &mut entries).await?;
        Ok(entries)
    }
}

/// A word as a `LIKE` pattern's literal part (`%` and `_` match themselves).
fn escape(word: &str) -> String {
    word.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
