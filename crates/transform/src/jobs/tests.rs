//! Creating jobs against real databases (SQLite, and PostgreSQL with
//! `FOLIO_TEST_DATABASE_URL`): the one-statement create of a workflow seen runnable, and jobs
//! handed to a free worker already claimed.

use folio_api::limits::Limits;
use folio_silo::{NewEnvelope, Silo};
use folio_store::testing::TestDb;
use folio_store::{Blobs, Scope};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::engine::{queue, runner};
use crate::error::TransformError;
use crate::model::{NewJob, SaveWorkflow};
use crate::{Transform, TransformConfig};

/// A service without worker tasks (the tests stand in for them), a workspace, a published
/// one-step workflow and an envelope.
async fn service(db: &TestDb, lease_ms: u64) -> (Transform, Scope, Uuid, Uuid) {
    let store = &db.store;
    let scope = Scope::new(store.create_workspace("jobs").await.unwrap().id);
    let blobs = Blobs::local(&db.dir().join("files")).unwrap();
    let silo = Silo::new(store.clone(), blobs, Limits::default());
    let config = TransformConfig {
        workers: 0,
        lease_ms,
        ..TransformConfig::default()
    };
    let t = Transform::new(store.clone(), silo.clone(), config);
    let wf = Uuid::new_v4();
    t.create_workflow(scope, wf, save(&["processing"], false), 100)
        .await
        .unwrap();
    let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hi"});
    let new = NewEnvelope {
        data: doc.to_string(),
        ..NewEnvelope::default()
    };
    let envelope = silo.create(scope, new).await.unwrap().id;
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

fn job(wf: Uuid, envelope: Uuid) -> NewJob {
    NewJob {
        id: Uuid::now_v7(),
        workflow_id: wf,
        silo_entry_id: Some(envelope),
        ..NewJob::default()
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

        // an envelope that is not there is refused as before
        let got = t.create_job(scope, job(wf, Uuid::new_v4())).await;
        assert_eq!(
            refusal(got),
            "no such envelope in this workspace",
            "{}",
            db.label
        );
    }
}

#[tokio::test]
async fn a_job_made_while_a_worker_waits_is_handed_to_it_claimed() {
    for db in folio_store::testing::backends().await {
        let (t, scope, wf, envelope) = service(&db, 60_000).await;
        let free = t.inner.handoff.free();
        let made = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        // the waiting worker has a job queued for it now: the next is left to any node's claim,
        // which does not find the first (claimed for the worker)
        let next = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(next.id), "{}", db.label);
        let handed = t.take_handed().await.expect("the handed job");
        assert_eq!(handed.id, made.id, "{}", db.label);
        assert!(t.take_handed().await.is_none(), "{}", db.label);
        drop(free);

        runner::run(&t, handed, &CancellationToken::new()).await;
        let done = t.job(scope, made.id).await.unwrap();
        assert_eq!(done.status, "OK", "{}", db.label);
    }
}

#[tokio::test]
async fn a_handed_job_not_taken_in_time_or_at_shutdown_is_released() {
    for db in folio_store::testing::backends().await {
        // half of a 200 ms lease is the most a handed job waits
        let (t, scope, wf, envelope) = service(&db, 200).await;
        let free = t.inner.handoff.free();
        let late = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        tokio::time::sleep(std::time::Duration::from_millis(120)).await;
        assert!(t.take_handed().await.is_none(), "{}", db.label);
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(late.id), "{}", db.label);

        let left = t.create_job(scope, job(wf, envelope)).await.unwrap().0;
        drop(free);
        t.release_all_handed().await;
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        assert_eq!(claimed.map(|c| c.id), Some(left.id), "{}", db.label);
    }
}
