//! Every list and search statement of the silo reads through an index, on both backends: each
//! is built as the silo builds it and explained (`EXPLAIN QUERY PLAN` / `EXPLAIN`) on a store
//! filled in bulk with enough envelopes that a planner would rather scan than use an index that
//! did not fit, and no plan may scan the envelopes (or related) table whole.

use chrono::{DateTime, Utc};
use folio_api::page::Position;
use folio_store::testing::{TestDb, analyze, backends, scans_whole};
use folio_store::{Backend, Scope};
use sqlx::Row;
use uuid::Uuid;

use super::Statement;
use super::list::{self, Start};
use super::search::{self, Found};
use super::{browse, related};
use crate::query::{BrowseQuery, RelatedQuery};

/// Envelopes filled: a tenth in folder `archive`, two fifths in `sales`, the rest in none; a
/// fifth in state `sent`; 500 customers; a key on half of them.
const ENVELOPES: i64 = 20_000;

/// A document one envelope in a thousand mentions (`silo_related`), and one that one in ten
/// does; each other envelope mentions a document of its own.
const RARE_TARGET: Uuid = Uuid::from_u128(1);
const COMMON_TARGET: Uuid = Uuid::from_u128(2);

/// One statement to explain: a name for messages, its text and its values.
struct Explained {
    name: String,
    sql: String,
    st: Statement,
}

/// Fills the store with [`ENVELOPES`] envelopes and their related rows, in two statements.
async fn fill(db: &TestDb, ws: Scope) {
    let (rows, head) = folio_store::testing::numbered_rows(db.store.backend());
    let envelopes = format!(
        "{head}INSERT INTO silo_envelopes (workspace_id, id, created_at, updated_at, key, folder, \
         env_schema, doc_schema, digest, signed, state, version, tags, meta, fingerprint, number, \
         supplier, customer, currency, payable, search_text) \
         SELECT $1, 'e' || i, 1700000000000 + i, 1700000000000 + i, \
         CASE WHEN i % 2 = 0 THEN 'K-' || i END, \
         CASE WHEN i % 10 = 0 THEN 'archive' WHEN i % 2 = 0 THEN 'sales' END, 'env', \
         CASE WHEN i % 50 = 0 THEN 'https://gobl.org/draft-0/note/message' \
              ELSE 'https://gobl.org/draft-0/bill/invoice' END, 'd', 0, \
         CASE WHEN i % 5 = 0 THEN 'sent' END, 'v', '[]', '{{}}', 'f', 'FT-' || i, 'Muster GmbH', \
         'Kunde ' || (i % 500), 'EUR', '100.00', \
         'k ' || i || ' ft ' || i || ' muster gmbh kunde ' || (i % 500) || ' de' || (i % 500) \
         FROM {rows}"
    );
    sqlx::query(&envelopes)
        .bind(ws.workspace_id().to_string())
        .bind(ENVELOPES)
        .execute(db.store.pool())
        .await
        .expect("fill envelopes");
    sqlx::query(
        "INSERT INTO silo_related (workspace_id, target, envelope_id, contexts, created_at) \
         SELECT workspace_id, CASE WHEN created_at % 1000 = 0 THEN $2 \
         WHEN created_at % 10 = 0 THEN $3 ELSE 'own-' || id END, id, \
         'preceding', created_at FROM silo_envelopes WHERE workspace_id = $1",
    )
    .bind(ws.workspace_id().to_string())
    .bind(RARE_TARGET.to_string())
    .bind(COMMON_TARGET.to_string())
    .execute(db.store.pool())
    .await
    .expect("fill related");
    super::search_index::index_all(&db.store)
        .await
        .expect("the search index fed");
    analyze(&db.store).await;
}

fn at(ms: i64) -> DateTime<Utc> {
    folio_store::from_millis(ms)
}

/// The list statements of `paging.rs`: first pages and cursors both ways, with and without a
/// folder, and the envelopes of one millisecond.
fn lists(ws: Scope) -> Vec<Explained> {
    let mut out = Vec::new();
    let middle = 1700000000000 + ENVELOPES / 2;
    let starts = [
        ("first", Start::First),
        ("after", Start::After(middle, Uuid::from_u128(7))),
        ("from", Start::From(middle)),
    ];
    for folder in [None, Some("archive")] {
        for (label, start) in starts {
            for ascending in [false, true] {
                let mut st = Statement::scoped(ws);
                let sql = list::page_sql(&mut st, folder, start, ascending, 26);
                let name = format!("list {label} folder={folder:?} ascending={ascending}");
                out.push(Explained { name, sql, st });
            }
        }
        let mut st = Statement::scoped(ws);
        let sql = list::created_at_sql(&mut st, folder, middle, false);
        let name = format!("list of one millisecond folder={folder:?}");
        out.push(Explained { name, sql, st });
    }
    out
}

/// Searches and console pages: a rare party and number, a word most envelopes have (which
/// SQLite walks), filters, cursors.
async fn searches(db: &TestDb, ws: Scope) -> Vec<Explained> {
    let store = &db.store;
    let mut out = Vec::new();
    let cursor = Some((1700000000000 + ENVELOPES / 2, Uuid::from_u128(7)));
    for q in ["kunde 173", "de173", "FT-1234", "muster", "k"] {
        let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
        for (folder, after) in [(None, None), (Some("archive"), cursor)] {
            let mut st = Statement::scoped(ws);
            let m = search::matched(store, &mut st, &words)
                .await
                .unwrap()
                .unwrap();
            let found = Found {
                words: &words,
                folder,
                after,
            };
            let sql = search::matching_sql(&mut st, &m, &found, 26, 0);
            let name = format!("search {q:?} folder={folder:?} after={after:?}");
            out.push(Explained { name, sql, st });
        }
        let browse = BrowseQuery {
            words: words.clone(),
            state: Some("sent".into()),
            limit: 25,
            ..BrowseQuery::default()
        };
        out.push(browsed(store, ws, format!("browse {q:?} sent"), &browse).await);
    }
    let position = Position {
        created_at: at(1700000000000 + ENVELOPES / 2),
        id: Uuid::from_u128(7),
    };
    let filters = [
        BrowseQuery::default(),
        BrowseQuery {
            doc_type: Some("note/message".into()),
            ..BrowseQuery::default()
        },
        BrowseQuery {
            state: Some("sent".into()),
            cursor: Some(position),
            ..BrowseQuery::default()
        },
        BrowseQuery {
            from: Some(at(1700000000000 + 100)),
            until: Some(at(1700000000000 + 900)),
            ..BrowseQuery::default()
        },
    ];
    for (i, q) in filters.iter().enumerate() {
        out.push(browsed(store, ws, format!("browse filters #{i}"), q).await);
    }
    out
}

async fn browsed(
    store: &folio_store::Store,
    ws: Scope,
    name: String,
    q: &BrowseQuery,
) -> Explained {
    let mut st = Statement::scoped(ws);
    let m = match q.words.is_empty() {
        true => None,
        false => search::matched(store, &mut st, &q.words).await.unwrap(),
    };
    let sql = browse::page_sql(&mut st, q, m.as_ref(), 26);
    Explained { name, sql, st }
}

/// An envelope by its key.
fn by_key(ws: Scope) -> Explained {
    let mut st = Statement::scoped(ws);
    st.bind("K-1234".to_owned());
    let sql = super::envelopes::BY_KEY_SQL.to_owned();
    let name = "an envelope by its key".to_owned();
    Explained { name, sql, st }
}

fn relateds(ws: Scope) -> Vec<Explained> {
    [RARE_TARGET, COMMON_TARGET]
        .into_iter()
        .map(|target| {
            let q = RelatedQuery {
                targets: vec![target],
                context: Some("preceding".into()),
                limit: 20,
                created_at: None,
                cursor: None,
            };
            let (sql, st) = related::page_sql(ws, &q, 21);
            let name = format!("related {target}");
            Explained { name, sql, st }
        })
        .collect()
}

/// The plan's lines.
async fn plan(db: &TestDb, e: Explained) -> (String, String) {
    let explain = match db.store.backend() {
        Backend::Sqlite => "EXPLAIN QUERY PLAN",
        Backend::Postgres => "EXPLAIN",
    };
    let rows =
        e.st.fetch_all(&db.store, &format!("{explain} {}", e.sql))
            .await
            .unwrap_or_else(|err| panic!("{}: {err}\n{}", e.name, e.sql));
    let column = match db.store.backend() {
        Backend::Sqlite => 3,
        Backend::Postgres => 0,
    };
    let lines: Vec<String> = rows.iter().map(|r| r.get::<String, _>(column)).collect();
    (e.name, lines.join("\n"))
}

/// A whole-table read of the envelopes or of the related index, in either backend's words.
fn scans_a_table(plan: &str) -> bool {
    scans_whole(plan, &["e", "r", "silo_envelopes", "silo_related"])
        || plan.lines().any(|line| {
            // the full-text index read whole rather than asked (`:M`, a MATCH)
            line.contains("VIRTUAL TABLE INDEX") && !line.contains(":M")
        })
}

/// Whether a page that starts at a time starts there in the index (keyset paging), rather than
/// at the newest envelope, filtering its way down.
fn starts_at_its_time(plan: &str) -> bool {
    plan.lines().any(|line| {
        line.contains("created_at") && (line.contains("SEARCH") || line.contains("Index Cond"))
    })
}

#[tokio::test]
async fn every_list_and_search_reads_through_an_index() {
    for db in backends().await {
        let ws = Scope::new(db.store.create_workspace("plans").await.unwrap().id);
        fill(&db, ws).await;
        let mut all = lists(ws);
        all.extend(searches(&db, ws).await);
        all.extend(relateds(ws));
        all.push(by_key(ws));
        for e in all {
            let sql = e.sql.clone();
            let (name, plan) = plan(&db, e).await;
            eprintln!("{} {name}:\n{plan}\n", db.label);
            assert!(
                !scans_a_table(&plan),
                "{} {name} scans a table:\n{plan}\n{sql}",
                db.label
            );
            if name.starts_with("list after") || name.starts_with("list from") {
                assert!(
                    starts_at_its_time(&plan),
                    "{} {name} is not keyset-paged:\n{plan}\n{sql}",
                    db.label
                );
            }
        }
    }
}

#[test]
fn a_scan_is_recognised_in_both_backends_words() {
    assert!(scans_a_table("SCAN e"));
    assert!(scans_a_table("SCAN e USING INDEX silo_envelopes_created"));
    assert!(scans_a_table("Limit\n  ->  Seq Scan on silo_envelopes e"));
    assert!(!scans_a_table(
        "SEARCH e USING INDEX silo_envelopes_created (workspace_id=?)"
    ));
    assert!(!scans_a_table(
        "SCAN s\nSCAN silo_search VIRTUAL TABLE INDEX 0:M3"
    ));
    assert!(scans_a_table("SCAN silo_search VIRTUAL TABLE INDEX 0:"));
    assert!(!scans_a_table(
        "Limit\n  ->  Index Scan Backward using silo_envelopes_created on silo_envelopes e"
    ));
}
