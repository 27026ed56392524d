//! Creating jobs against real databases (SQLite, and PostgreSQL with
//! `FOLIO_TEST_DATABASE_URL`): the one-statement create of a workflow seen runnable, and jobs
//! handed to a free worker already claimed.

use folio_store::Scope;
use folio_store::testing::TestDb;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::Transform;
use crate::engine::{queue, runner};
use crate::error::TransformError;
use crate::model::SaveWorkflow;
use crate::testing::{self, job};

/// A service (see `testing::service`) with a published one-step workflow.
async fn service(db: &TestDb, lease_ms: u64) -> (Transform, Scope, Uuid, Uuid) {
    let (t, scope, envelope) = testing::service(db, lease_ms).await;
    let wf = Uuid::new_v4();
    t.create_workflow(scope, wf, save(&["processing"], false), 100)
        .await
        .unwrap();
    (t, scope, wf, envelope)
}

/// A workflow of one `silo.state` step per state.
fn save(states: &[&str], disabled: bool) -> SaveWorkflow {
    let steps: Vec<_> = states
        .iter()
        .enumerate()
        .map(
            |(i, s)| json!({"id": format!("s{i}"), "action": "silo.state", "config": {"state": s}}),
        )
        .collect();
    SaveWorkflow {
        definition: serde_json::from_value(json!({"name": "states", "steps": steps})).unwrap(),
        draft: false,
        disabled,
    }
}

fn refusal(got: Result<(crate::model::Job, bool), TransformError>) -> String {
    match got {
        Err(TransformError::Invalid(fields)) => fields[0].message.clone(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_create_after_the_workflow_changed_is_checked_by_the_insert() {
    for db in folio_store::testing::backends().await {
        let (t, scope, wf, envelope) = service(&db, 60_000).await;
        let first = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        assert_eq!(first.workflow_version, 1, "{}", db.label);

        // this node saw version 1 runnable; the workflow is disabled since
        t.update_workflow(scope, wf, save(&["processing"], true), 100)
            .await
            .unwrap();
        let got = t.create_job(scope, job(wf, envelope)).await;
        assert_eq!(refusal(got), "the workflow is disabled", "{}", db.label);

        // enabled again with a new version: jobs are made on it, not on the one seen before
        t.update_workflow(scope, wf, save(&["processing", "sent"], false), 100)
            .await
            .unwrap();
        for _ in 0..2 {
            let made = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
            assert_eq!(made.workflow_version, 2, "{}", db.label);
        }

        // an envelope that is not there, or is another workspace's, is refused as before
        let other = Scope::new(db.store.create_workspace("other").await.unwrap().id);
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "there"});
        let new = folio_silo::NewEnvelope {
            data: doc.to_string(),
            ..Default::default()
        };
        let elsewhere = t.silo().create(other, new).await.unwrap().id;
        for missing in [Uuid::new_v4(), elsewhere] {
            let got = t.create_job(scope, job(wf, missing)).await;
            assert_eq!(
                refusal(got),
                "no such envelope in this workspace",
                "{}",
                db.label
            );
        }
        // and a job without an envelope is made in one statement too
        let bare = crate::model::NewJob {
            silo_entry_id: None,
            ..job(wf, envelope)
        };
        assert!(t.create_job(scope, bare).await.unwrap().1, "{}", db.label);
    }
}

#[tokio::test]
async fn a_job_made_while_fewer_wait_than_workers_run_is_handed_to_them_claimed() {
    for db in folio_store::testing::backends().await {
        let (t, scope, wf, envelope) = service(&db, 60_000).await;
        // no worker runs here: the job is left to any node's claim
        let unhanded = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(unhanded.id), "{}", db.label);

        let running = t.inner.handoff.running();
        let made = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        // the one worker has a job queued for it now: the next is left to any node's claim,
        // which does not find the first (claimed for the worker)
        let next = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(next.id), "{}", db.label);
        let handed = t.take_handed().await.expect("the handed job");
        assert_eq!(handed.id, made.id, "{}", db.label);
        assert!(t.take_handed().await.is_none(), "{}", db.label);
        drop(running);

        runner::run(&t, handed, &CancellationToken::new()).await;
        let done = t.job(scope, made.id).await.unwrap();
        assert_eq!(done.status, "OK", "{}", db.label);
    }
}

/// A job made on `service` while its one worker is busy for `busy_ms`: checks that it was
/// released to any node's claim rather than kept for that worker.
async fn released_while_the_worker_is_busy(
    label: &str,
    service: &(Transform, Scope, Uuid, Uuid),
    busy_ms: u64,
) {
    let (t, scope, wf, envelope) = service;
    let _running = t.inner.handoff.running();
    let made = t.create_job(*scope, job(*wf, *envelope)).await.unwrap().0;
    tokio::time::sleep(std::time::Duration::from_millis(busy_ms)).await;
    assert!(t.take_handed().await.is_none(), "{label}");
    let claimed = queue::claim(t.store(), 60_000).await.unwrap();
    assert_eq!(claimed.map(|c| c.id), Some(made.id), "{label}");
}

#[tokio::test]
async fn a_job_made_here_waits_for_a_worker_here_no_longer_than_the_poll_interval() {
    for db in folio_store::testing::backends().await {
        // a long lease: the poll interval (500 ms) bounds the wait, not half the lease
        let service = service(&db, 60_000).await;
        released_while_the_worker_is_busy(db.label, &service, 600).await;
    }
}

#[tokio::test]
async fn a_handed_job_not_taken_in_time_or_at_shutdown_is_released() {
    for db in folio_store::testing::backends().await {
        // half of a 200 ms lease is the most a handed job waits
        let service = service(&db, 200).await;
        released_while_the_worker_is_busy(db.label, &service, 120).await;

        let (t, scope, wf, envelope) = service;
        let running = t.inner.handoff.running();
        let left = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        drop(running);
        t.release_all_handed().await;
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(left.id), "{}", db.label);
    }
}
