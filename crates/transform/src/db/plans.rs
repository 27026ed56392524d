//! The job list, the jobs of an envelope, a job by its key, a job with its intents and the
//! queue's claim read through an index on both backends, with many finished jobs in the table
//! (`EXPLAIN QUERY PLAN` / `EXPLAIN` of the statements as the service builds them, on tables
//! filled in bulk): no plan reads the jobs or the intents whole, and a later page of the list
//! starts at its time in the index.

use folio_store::testing::{TestDb, analyze, backends, scans_whole};
use folio_store::{Backend, Scope};
use sqlx::Row;
use sqlx::any::AnyArguments;

use super::{jobs, queue};

/// Jobs filled: all finished but one in a hundred, which waits to be claimed; one in ten has
/// a key; each has two intents.
const JOBS: i64 = 20_000;

async fn fill(db: &TestDb, ws: Scope) {
    let (rows, head) = folio_store::testing::numbered_rows(db.store.backend());
    let sql = format!(
        "{head}INSERT INTO transform_jobs (workspace_id, id, created_at, updated_at, completed_at, \
         workflow_id, workflow_version, silo_entry_id, args, tags, request_hash, status, faults, \
         phase, intent_seq, attempt, ready_at, claims, job_key) \
         SELECT $1, 'j' || i, 1700000000000 + i, 1700000000000 + i, \
         CASE WHEN i % 100 = 0 THEN NULL ELSE 1700000000000 + i END, 'w', 1, 'e' || (i % 5000), \
         '{{}}', '[]', 'h', CASE WHEN i % 100 = 0 THEN 'QUEUED' ELSE 'OK' END, '[]', 'main', 0, 0, \
         CASE WHEN i % 100 = 0 THEN 1700000000000 + i END, 0, \
         CASE WHEN i % 10 = 0 THEN 'k' || i END FROM {rows}"
    );
    sqlx::query(&sql)
        .bind(ws.workspace_id().to_string())
        .bind(JOBS)
        .execute(db.store.pool())
        .await
        .expect("fill jobs");
    let sql = format!(
        "{head}INSERT INTO transform_intents (workspace_id, job_id, id, seq, step_id, name, \
         provider, completed, created_at, updated_at, events) \
         SELECT $1, 'j' || (i / 2), 'i' || i, i % 2, 's', 'n', 'p', 1, 0, 0, '[]' FROM {rows}"
    );
    sqlx::query(&sql)
        .bind(ws.workspace_id().to_string())
        .bind(2 * JOBS)
        .execute(db.store.pool())
        .await
        .expect("fill intents");
    analyze(&db.store).await;
}

/// `(name, statement, values)` of every statement checked.
fn statements(backend: Backend, ws: Scope) -> Vec<(&'static str, String, AnyArguments<'static>)> {
    use sqlx::Arguments as _;
    let middle = 1700000000000 + JOBS / 2;
    let mut first = ws.arguments();
    let _ = first.add(i64::MAX);
    let _ = first.add(i64::MAX);
    let _ = first.add(String::new());
    let _ = first.add(21_i64);
    let mut later = ws.arguments();
    let _ = later.add(middle);
    let _ = later.add(middle);
    let _ = later.add("j10000".to_string());
    let _ = later.add(21_i64);
    let mut envelope = ws.arguments();
    let _ = envelope.add("e17".to_string());
    let _ = envelope.add(21_i64);
    let mut key = ws.arguments();
    let _ = key.add("k1230".to_string());
    let mut job = ws.arguments();
    let _ = job.add("j1234".to_string());
    let mut claim = AnyArguments::default();
    let _ = claim.add("owner".to_string());
    let _ = claim.add(middle + 60_000);
    let _ = claim.add(middle);
    vec![
        ("list, first page", jobs::list_sql(), first),
        ("list, later page", jobs::list_sql(), later),
        ("jobs of an envelope", jobs::of_envelope_sql(), envelope),
        ("a job by its key", jobs::BY_KEY_SQL.to_string(), key),
        (
            "a job with its intents",
            jobs::with_intents_sql().to_string(),
            job,
        ),
        ("claim", queue::claim_sql(backend, 8), claim),
    ]
}

/// Whether the plan reads the jobs or the intents whole (`j` and `i`: their aliases in the
/// join, SQLite's names for them).
fn scans_jobs(plan: &str) -> bool {
    scans_whole(plan, &["transform_jobs", "transform_intents", "j", "i"])
}

#[tokio::test]
async fn job_lists_and_the_claim_read_through_an_index() {
    for db in backends().await {
        let ws = Scope::new(db.store.create_workspace("plans").await.unwrap().id);
        fill(&db, ws).await;
        let (explain, column) = match db.store.backend() {
            Backend::Sqlite => ("EXPLAIN QUERY PLAN", 3),
            Backend::Postgres => ("EXPLAIN", 0),
        };
        for (name, sql, args) in statements(db.store.backend(), ws) {
            let rows = sqlx::query_with(&format!("{explain} {sql}"), args)
                .fetch_all(db.store.pool())
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let lines: Vec<String> = rows.iter().map(|r| r.get::<String, _>(column)).collect();
            let plan = lines.join("\n");
            assert!(!scans_jobs(&plan), "{} {name}:\n{plan}", db.label);
            if name == "list, later page" {
                assert!(
                    plan.lines().any(|l| l.contains("created_at")
                        && (l.contains("SEARCH") || l.contains("Index Cond"))),
                    "{} {name} is not keyset-paged:\n{plan}",
                    db.label
                );
            }
        }
    }
}

/// On PostgreSQL the claim is planned once a connection: after the five calls it plans for
/// their values, a plan for any values serves (the claim picked rows by key was planned anew on
/// every call, its plan for any values being a scan of the table). A worker polls with it
/// every few milliseconds.
#[tokio::test]
async fn the_claim_keeps_one_plan_on_postgresql() {
    use sqlx::Arguments as _;
    for db in backends().await {
        if db.store.backend() != Backend::Postgres {
            continue;
        }
        let ws = Scope::new(db.store.create_workspace("plans").await.unwrap().id);
        fill(&db, ws).await;
        let mut conn = db.store.pool().acquire().await.unwrap();
        let sql = queue::claim_sql(Backend::Postgres, 4);
        for _ in 0..8 {
            // a poll that finds nothing ready, as most of a worker's polls do
            let mut args = AnyArguments::default();
            let _ = args.add("owner".to_string());
            let _ = args.add(1_i64);
            let _ = args.add(0_i64);
            let claimed = sqlx::query_with(&sql, args)
                .fetch_all(&mut *conn)
                .await
                .unwrap();
            assert!(claimed.is_empty());
        }
        let (generic, custom): (i64, i64) = sqlx::query_as(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements \
             WHERE statement = $1",
        )
        .bind(&sql)
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        assert!(
            generic >= 3,
            "generic plans {generic}, custom plans {custom}"
        );
    }
}
