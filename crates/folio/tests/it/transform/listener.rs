//! The PostgreSQL notice listener: a completion announced while the `LISTEN` connection is
//! down must still answer a `?wait` promptly once it is back (not at the wait's timeout).
//!
//! The node under test runs no workers (an API-only node), so every completion it hears of
//! comes from "another node": the test completes the job in the database and `NOTIFY`s exactly
//! as a worker elsewhere does. SQLite has a single node and no listener; there the test only
//! checks that an API-only node's `?wait` still answers at its timeout.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::Row;
use uuid::Uuid;

use super::{envelope, workflow};
use crate::harness::TestApp;

/// A server per backend that runs no jobs itself.
async fn api_only_apps() -> Vec<TestApp> {
    super::apps_with(|c| {
        c.transform
            .insert("workers".into(), toml::Value::Integer(0));
    })
    .await
}

/// Starts `GET /transform/v1/jobs/{id}?wait=N` in the background.
fn wait_in_background(app: &TestApp, id: Uuid, secs: u64) -> tokio::task::JoinHandle<Value> {
    let request = app.request(
        reqwest::Method::GET,
        &format!("/transform/v1/jobs/{id}?wait={secs}"),
    );
    tokio::spawn(async move {
        let resp = request.send().await.expect("answered");
        assert_eq!(resp.status().as_u16(), 200);
        resp.json().await.expect("json")
    })
}

/// Completes a queued job as a worker on another node would: the row, then `NOTIFY` on commit.
async fn complete_elsewhere(conn: &mut sqlx::AnyConnection, id: Uuid) {
    let now = folio_store::millis(folio_store::now());
    let mut tx = sqlx::Connection::begin(conn).await.unwrap();
    let done = sqlx::query(
        "UPDATE transform_jobs SET status = 'OK', completed_at = $1, updated_at = $1, \
         ready_at = NULL, lease_owner = NULL WHERE id = $2 AND completed_at IS NULL",
    )
    .bind(now)
    .bind(id.to_string())
    .execute(&mut *tx)
    .await
    .unwrap();
    assert_eq!(done.rows_affected(), 1);
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(folio_transform::engine::DONE_CHANNEL)
        .bind(id.to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// Backends of this database's `LISTEN` connections.
async fn listeners(app: &TestApp) -> i64 {
    sqlx::query(
        "SELECT COUNT(*) AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    )
    .fetch_one(app.db.store.pool())
    .await
    .unwrap()
    .try_get("n")
    .unwrap()
}

async fn queued_job(app: &TestApp, wf: &Value, env: Uuid) -> Uuid {
    let id = Uuid::now_v7();
    let job = app
        .put(
            &format!("/transform/v1/jobs/{id}"),
            &json!({"workflow_id": wf["id"], "silo_entry_id": env}),
        )
        .await
        .expect(202);
    assert_eq!(job["status"], "QUEUED");
    id
}

#[tokio::test]
async fn a_completion_during_a_listener_reconnect_still_wakes_wait_promptly() {
    for app in api_only_apps().await {
        let wf = workflow(
            &app,
            json!({"name": "w", "steps": [
                {"id": "s", "action": "silo.state", "config": {"state": "processing"}}]}),
        )
        .await;
        let env = envelope(&app).await;
        if app.label() != "postgres" {
            // one node, no listener: nothing runs the job, the wait answers at its timeout
            let id = queued_job(&app, &wf, env).await;
            let started = Instant::now();
            let job = app
                .get(&format!("/transform/v1/jobs/{id}?wait=1"))
                .await
                .expect(200);
            assert!(started.elapsed() >= Duration::from_millis(950));
            assert!(job["completed_at"].is_null());
            app.stop().await;
            continue;
        }
        // the listener is up
        let up = Instant::now();
        while listeners(&app).await < 1 {
            assert!(
                up.elapsed() < Duration::from_secs(10),
                "no LISTEN connection"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let id = queued_job(&app, &wf, env).await;
        let waiter = wait_in_background(&app, id, 20);
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Keep the listener out for a while: refuse new connections to the database, drop the
        // listener's connection (waiting until its backend is gone), complete the job (its
        // NOTIFY goes out while nobody listens), then let connections in again.
        let pool = app.db.store.pool();
        let name: String = sqlx::query("SELECT CAST(current_database() AS TEXT) AS d")
            .fetch_one(pool)
            .await
            .unwrap()
            .try_get("d")
            .unwrap();
        // a connection of our own, opened before connections are refused
        let mut conn = pool.acquire().await.unwrap();
        let allow = |on: bool| format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS {on}");
        // (from the admin database: a session cannot lock out its own database)
        let admin_url = std::env::var(folio_store::testing::DATABASE_URL_VAR).unwrap();
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&admin_url)
            .await
            .unwrap();
        sqlx::query(&allow(false))
            .execute(&mut admin)
            .await
            .unwrap();
        let killed: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM (SELECT pg_terminate_backend(pid, 5000) AS gone \
             FROM pg_stat_activity WHERE datname = current_database() \
             AND query LIKE 'LISTEN%') t WHERE gone",
        )
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .try_get("n")
        .unwrap();
        complete_elsewhere(&mut conn, id).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        sqlx::query(&allow(true)).execute(&mut admin).await.unwrap();
        assert_eq!(killed, 1, "one LISTEN connection was terminated");
        let completed = Instant::now();
        let job = tokio::time::timeout(Duration::from_secs(25), waiter)
            .await
            .expect("the wait answered")
            .unwrap();
        let took = completed.elapsed();
        assert!(
            job["completed_at"].is_string(),
            "the wait saw the job complete: {job}"
        );
        assert!(
            took < Duration::from_secs(10),
            "the wait answered {took:?} after the completion (its timeout is 20 s; the listener \
             retries every second)"
        );
        // the listener is back, and notices reach waiters again
        let back = Instant::now();
        while listeners(&app).await < 1 {
            assert!(back.elapsed() < Duration::from_secs(10), "LISTEN not back");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let id = queued_job(&app, &wf, env).await;
        let waiter = wait_in_background(&app, id, 20);
        tokio::time::sleep(Duration::from_millis(300)).await;
        complete_elsewhere(&mut conn, id).await;
        let completed = Instant::now();
        let job = waiter.await.unwrap();
        assert!(job["completed_at"].is_string(), "{job}");
        // without the notice the wait would answer at its 20 s timeout
        assert!(
            completed.elapsed() < Duration::from_secs(8),
            "{:?}",
            completed.elapsed()
        );
        app.stop().await;
    }
}
