//! Search over a workspace's envelopes by the words of their stored search text (see
//! `summary.rs` for what is searched and what matches), through an index on both backends:
//! - PostgreSQL: its text search, `to_tsvector('simple', search_text)` under a GIN index, asked
//!   with every searched word as a phrase whose last word is a prefix (`ft <-> 101:*`), or,
//!   when a searched word has a digit (a number, a tax id), with the longest such word alone
//!   and the rest checked on the rows it finds.
//! - SQLite: the FTS5 table `silo_search` (with the rows still waiting to enter it, see
//!   `search_index.rs`), which knows which rows hold a word but not where
//!   (`detail=none`, a third of the size), so the rows it finds are checked for the words'
//!   order on the row's own `search_text` (a `LIKE` on one short column); a word with a digit
//!   is looked up alone, as on PostgreSQL. When the index finds very many rows (a word that
//!   most envelopes have), walking the newest envelopes and checking each is faster than
//!   gathering them all, and that is what runs instead.

use folio_store::{Backend, Scope, Store};
use sqlx::Row;
use uuid::Uuid;

use super::Statement;
use super::list::entries;
use super::rows::ENTRY_COLUMNS;
use crate::summary::words;
use crate::{Entry, SiloResult};

/// Rows of the SQLite index past which a search walks the newest envelopes instead: about
/// where gathering and sorting that many rows costs what walking to 25 matches among a
/// million envelopes does.
const GATHER_AT_MOST: i64 = 4000;

/// Prefixes shorter than this are not looked up in the SQLite index (a one- or two-letter
/// prefix stands for a good part of all words); the rows are checked for them instead.
const SHORTEST_PREFIX: usize = 3;

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
    let mut st = Statement::scoped(ws);
    let Some(m) = matched(store, &mut st, found.words).await? else {
        return Ok(Vec::new());
    };
    let sql = matching_sql(&mut st, &m, found, limit, offset);
    entries(st.fetch_all(store, &sql).await?)
}

/// The statement of [`matching`] (tests read its query plan).
pub(super) fn matching_sql(
    st: &mut Statement,
    m: &Matched,
    found: &Found<'_>,
    limit: i64,
    offset: i64,
) -> String {
    let folder = found
        .folder
        .map(|f| format!(" AND e.folder = {}", st.bind(f.to_owned())))
        .unwrap_or_default();
    let after = found
        .after
        .map(|(ms, id)| {
            let (t, i) = (st.bind(ms), st.bind(id.to_string()));
            format!(
                " AND e.created_at <= {t} \
                 AND (e.created_at < {t} OR (e.created_at = {t} AND e.id < {i}))"
            )
        })
        .unwrap_or_default();
    format!(
        "SELECT {ENTRY_COLUMNS} FROM {} WHERE e.workspace_id = $1{folder}{after} AND {} \
         ORDER BY e.created_at DESC, e.id DESC LIMIT {} OFFSET {}",
        m.from,
        m.condition,
        limit.max(1),
        offset.max(0)
    )
}

/// How a statement over envelopes (`e`) keeps only those matching the words: its `FROM` and a
/// condition to add to its `WHERE`.
pub(super) struct Matched {
    pub from: String,
    pub condition: String,
}

/// [`Matched`] for `words`, its values bound in `st`; `None` when no word has a letter or a
/// digit (nothing matches).
pub(super) async fn matched(
    store: &Store,
    st: &mut Statement,
    words: &[String],
) -> SiloResult<Option<Matched>> {
    let phrases: Vec<Vec<String>> = words
        .iter()
        .map(|w| self::words(w))
        .filter(|p| !p.is_empty())
        .collect();
    if phrases.is_empty() {
        return Ok(None);
    }
    let envelopes = || "silo_envelopes e".to_string();
    Ok(Some(match store.backend() {
        Backend::Postgres => match numeric_term(&phrases) {
            // The one word looked up, the rest checked on the rows it finds. `OFFSET 0` keeps
            // the lookup a query of its own: PostgreSQL guesses thousands of rows for a prefix
            // and walked the newest-first index instead, computing every row's text vector
            // until it had a page (7 s at a million envelopes).
            Some(term) => Matched {
                from: format!(
                    "(SELECT * FROM silo_envelopes WHERE to_tsvector('simple', search_text) \
                     @@ to_tsquery('simple', {}) OFFSET 0) e",
                    st.bind(term)
                ),
                condition: in_order(st, &phrases),
            },
            None => Matched {
                from: envelopes(),
                condition: format!(
                    "to_tsvector('simple', e.search_text) @@ to_tsquery('simple', {})",
                    st.bind(ts_query(&phrases))
                ),
            },
        },
        Backend::Sqlite => {
            let in_order = in_order(st, &phrases);
            match lookup(store, &phrases).await? {
                Some((_, 0)) => return Ok(None),
                // the rows still waiting to enter the index are read beside it
                Some((q, rows)) if rows < GATHER_AT_MOST => Matched {
                    from: format!(
                        "(SELECT envelope_id, version FROM silo_search \
                         WHERE silo_search MATCH {} AND workspace_id = $1 \
                         UNION SELECT envelope_id, version FROM silo_search_pending \
                         WHERE workspace_id = $1) s \
                         CROSS JOIN silo_envelopes e",
                        st.bind(q)
                    ),
                    condition: format!(
                        "e.id = s.envelope_id AND e.version = s.version AND {in_order}"
                    ),
                },
                _ => Matched {
                    from: envelopes(),
                    condition: in_order,
                },
            }
        }
    }))
}

/// PostgreSQL's query: each phrase's words in a row, the last a prefix, all phrases.
fn ts_query(phrases: &[Vec<String>]) -> String {
    let each: Vec<String> = phrases
        .iter()
        .map(|words| {
            let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
            format!("({}:*)", quoted.join(" <-> "))
        })
        .collect();
    each.join(" & ")
}

/// PostgreSQL's query for the longest searched word with a digit in it, when there is one.
/// Such words (numbers, tax ids) are held by a few envelopes; GIN intersects the row lists of
/// every word it is asked for, and with the common ones ("es", "2026", "gmbh") that took 92 ms
/// at a million envelopes where the one rare word alone takes a few.
fn numeric_term(phrases: &[Vec<String>]) -> Option<String> {
    Some(match numeric(&terms(phrases))? {
        Term::Word(w) => format!("'{w}'"),
        Term::Prefix(p) => format!("'{p}':*"),
    })
}

/// The longest term with a digit in it.
fn numeric<'a>(terms: &'a [Term<'a>]) -> Option<&'a Term<'a>> {
    terms
        .iter()
        .filter(|t| t.text().chars().any(|c| c.is_ascii_digit()))
        .max_by_key(|t| t.text().chars().count())
}

/// The index terms of the phrases: every word, the last of each as a prefix when long enough
/// (shorter prefixes stand for a good part of all words and are left to the row check).
fn terms(phrases: &[Vec<String>]) -> Vec<Term<'_>> {
    let mut terms = Vec::new();
    for words in phrases {
        if let Some((last, rest)) = words.split_last() {
            terms.extend(rest.iter().map(|w| Term::Word(w)));
            if last.chars().count() >= SHORTEST_PREFIX {
                terms.push(Term::Prefix(last));
            }
        }
    }
    terms
}

/// A term of the SQLite index.
#[derive(Debug, PartialEq)]
enum Term<'a> {
    Word(&'a str),
    Prefix(&'a str),
}

impl Term<'_> {
    /// The word or prefix.
    fn text(&self) -> &str {
        match self {
            Term::Word(w) | Term::Prefix(w) => w,
        }
    }

    /// The term as an FTS5 query.
    fn query(&self) -> String {
        match self {
            Term::Word(w) => format!("\"{w}\""),
            Term::Prefix(p) => format!("\"{p}\"*"),
        }
    }
}

/// The SQLite index's query, with the rows that hold it and the rows waiting to enter the index
/// (each counted up to [`GATHER_AT_MOST`]; 0: nothing matches); `None` when no word is worth
/// looking up. A word with a digit (a number, a tax id) is looked up alone: few rows hold it,
/// and asking for the common words beside it ("es", "2026") made the index read their long
/// row lists, 30 ms at a million envelopes. Otherwise every word.
async fn lookup(store: &Store, phrases: &[Vec<String>]) -> SiloResult<Option<(String, i64)>> {
    let terms = terms(phrases);
    let query = match numeric(&terms) {
        Some(term) => term.query(),
        None if terms.is_empty() => return Ok(None),
        None => terms
            .iter()
            .map(Term::query)
            .collect::<Vec<_>>()
            .join(" AND "),
    };
    let row = sqlx::query(&format!(
        "SELECT (SELECT count(*) FROM (SELECT 1 FROM silo_search WHERE silo_search MATCH $1 \
         LIMIT {GATHER_AT_MOST})) + (SELECT count(*) FROM (SELECT 1 FROM silo_search_pending \
         LIMIT {GATHER_AT_MOST})) AS n"
    ))
    .bind(query.clone())
    .fetch_one(store.pool())
    .await?;
    Ok(Some((query, row.try_get("n")?)))
}

/// The condition that each phrase's words stand in a row in `search_text`, the last as a
/// prefix (words are letters and digits only: nothing to escape for `LIKE`).
fn in_order(st: &mut Statement, phrases: &[Vec<String>]) -> String {
    let each: Vec<String> = phrases
        .iter()
        .map(|words| {
            let pattern = st.bind(format!("% {}%", words.join(" ")));
            format!("(' ' || e.search_text) LIKE {pattern}")
        })
        .collect();
    each.join(" AND ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases(words: &[&str]) -> Vec<Vec<String>> {
        words.iter().map(|w| self::words(w)).collect()
    }

    #[test]
    fn queries_ask_for_phrases_with_a_prefix_last() {
        let p = phrases(&["FT-101", "kunde", "de"]);
        assert_eq!(ts_query(&p), "('ft' <-> '101':*) & ('kunde':*) & ('de':*)");
        assert_eq!(
            terms(&p),
            [Term::Word("ft"), Term::Prefix("101"), Term::Prefix("kunde")]
        );
        assert_eq!(Term::Prefix("101").query(), "\"101\"*");
        assert!(terms(&phrases(&["a", "x1"])).is_empty());
        let number = phrases(&["ES-2026-0012345"]);
        assert_eq!(numeric_term(&number).as_deref(), Some("'0012345':*"));
        assert_eq!(numeric_term(&phrases(&["becker gmbh"])), None);
    }
}
