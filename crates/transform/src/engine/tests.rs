//! The runner against real databases (SQLite, and PostgreSQL with `FOLIO_TEST_DATABASE_URL`):
//! a step's change to the silo and the job's save commit together, and a run of local steps
//! commits once.

use std::time::Duration;

use folio_store::Scope;
use folio_store::testing::TestDb;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::{queue, runner};
use crate::db::queue::MAX_INTENTS;
use crate::model::SaveWorkflow;
use crate::testing::{self, job};
use crate::{Transform, TransformConfig};

/// A service with no workers of its own (the test claims and runs), and a job of a workflow
/// of two local steps (`silo.state`, then `silo.folder`, which share one transaction) on a new
/// envelope.
async fn two_step_job(db: &TestDb) -> (Transform, Scope, Uuid, Uuid) {
    let (t, scope, envelope) = testing::service(db, TransformConfig::default().lease_ms).await;
    let steps = json!({"name": "state", "steps": [
        {"id": "state", "action": "silo.state", "config": {"state": "processing"}},
        {"id": "folder", "action": "silo.folder", "config": {"folder": "done"}}
    ]});
    let save = SaveWorkflow {
        definition: serde_json::from_value(steps).unwrap(),
        draft: false,
        disabled: false,
    };
    let wf = Uuid::new_v4();
    t.create_workflow(scope, wf, save, 100).await.unwrap();
    let job = t.create_job(scope, job(wf, envelope)).await.unwrap().0.id;
    (t, scope, envelope, job)
}

/// Claims the ready job with a lease of `lease_ms`, as a worker would.
async fn claim(t: &Transform, lease_ms: u64) -> queue::Claimed {
    queue::claim(t.store(), lease_ms)
        .await
        .unwrap()
        .expect("a ready job")
}

/// The job's status, and the code of each of its intents' last event.
async fn outcome(t: &Transform, scope: Scope, job: Uuid) -> (String, Vec<String>) {
    let done = t.job(scope, job).await.unwrap();
    let codes = done
        .intents
        .iter()
        .map(|i| i.events.last().unwrap().code.clone().unwrap_or_default())
        .collect();
    (done.status, codes)
}

#[tokio::test]
async fn a_worker_that_lost_its_lease_changes_nothing_in_the_silo() {
    for db in folio_store::testing::backends().await {
        let (t, scope, envelope, job) = two_step_job(&db).await;
        let stalled = claim(&t, 1).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        // the lease ran out: another worker claims the job
        let current = claim(&t, 60_000).await;
        assert_eq!((stalled.id, current.id), (job, job), "{}", db.label);

        let shutdown = CancellationToken::new();
        runner::run(&t, stalled, &shutdown).await;
        let states = t.silo().states(scope, envelope).await.unwrap();
        assert!(states.is_empty(), "{}: {states:?}", db.label);
        let entry = t.silo().get(scope, envelope).await.unwrap();
        assert_eq!(entry.folder, None, "{}", db.label);
        assert_eq!(
            t.job(scope, job).await.unwrap().status,
            "RUN",
            "{}",
            db.label
        );

        runner::run(&t, current, &shutdown).await;
        let states = t.silo().states(scope, envelope).await.unwrap();
        let keys: Vec<&str> = states.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["processing"], "{}", db.label);
        let entry = t.silo().get(scope, envelope).await.unwrap();
        assert_eq!(entry.folder.as_deref(), Some("done"), "{}", db.label);
        let (status, codes) = outcome(&t, scope, job).await;
        assert_eq!(status, "OK", "{}", db.label);
        assert_eq!(codes, ["state", "folder"], "{}", db.label);
    }
}

/// A state step run again after a crash finds the state an earlier run of the same intent
/// recorded: it reports so, and the run goes on; nothing is written twice.
#[tokio::test]
async fn a_state_set_by_an_earlier_run_of_the_step_is_not_set_twice() {
    for db in folio_store::testing::backends().await {
        let (t, scope, envelope, job) = two_step_job(&db).await;
        let claimed = claim(&t, 60_000).await;
        let earlier = folio_silo::NewState {
            key: "processing".into(),
            notes: None,
            meta: None,
            src: Some("transform".into()),
            src_id: Some(claimed.intent_id.to_string()),
        };
        t.silo().set_state(scope, envelope, earlier).await.unwrap();
        runner::run(&t, claimed, &CancellationToken::new()).await;

        let (status, codes) = outcome(&t, scope, job).await;
        assert_eq!(status, "OK", "{}", db.label);
        assert_eq!(codes, ["already-set", "folder"], "{}", db.label);
        let states = t.silo().states(scope, envelope).await.unwrap();
        assert_eq!(states.len(), 1, "{}: {states:?}", db.label);
        let entry = t.silo().get(scope, envelope).await.unwrap();
        assert_eq!(entry.folder.as_deref(), Some("done"), "{}", db.label);
    }
}

/// A run of more local steps than one save writes intents for ([`MAX_INTENTS`]): every step
/// is saved, in order, with its number, and the job's row ends where the last step left it.
#[tokio::test]
async fn a_long_run_of_local_steps_saves_every_step_in_order() {
    let n = MAX_INTENTS + 8;
    for db in folio_store::testing::backends().await {
        let (t, scope, envelope) = testing::service(&db, 60_000).await;
        let steps: Vec<_> = (0..n)
            .map(|i| match i % 2 {
                0 => json!({"id": format!("s{i}"), "action": "silo.state",
                            "config": {"state": "processing"}}),
                _ => json!({"id": format!("s{i}"), "action": "silo.folder",
                            "config": {"folder": format!("f{i}")}}),
            })
            .collect();
        let save = SaveWorkflow {
            definition: serde_json::from_value(json!({"name": "long", "steps": steps})).unwrap(),
            draft: false,
            disabled: false,
        };
        let wf = Uuid::new_v4();
        t.create_workflow(scope, wf, save, 100).await.unwrap();
        let job = t.create_job(scope, job(wf, envelope)).await.unwrap().0.id;
        runner::run(&t, claim(&t, 60_000).await, &CancellationToken::new()).await;

        let done = t.job(scope, job).await.unwrap();
        assert_eq!(done.status, "OK", "{}", db.label);
        let ids: Vec<&str> = done.intents.iter().map(|i| i.step_id.as_str()).collect();
        let expected: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
        assert_eq!(ids, expected, "{}", db.label);
        assert!(done.intents.iter().all(|i| i.completed), "{}", db.label);
        let states = t.silo().states(scope, envelope).await.unwrap();
        assert_eq!(states.len(), n / 2, "{}", db.label);
        let entry = t.silo().get(scope, envelope).await.unwrap();
        assert_eq!(entry.folder, Some(format!("f{}", n - 1)), "{}", db.label);
    }
}

/// The done notices another listener hears within `within`.
async fn heard(listener: &mut sqlx::postgres::PgListener, within: Duration) -> usize {
    let mut n = 0;
    while let Ok(got) = tokio::time::timeout(within, listener.recv()).await {
        got.unwrap();
        n += 1;
    }
    n
}

#[tokio::test]
async fn a_lone_node_sends_no_notices_until_another_node_listens() {
    let Some(db) = folio_store::testing::postgres().await else {
        return;
    };
    let mut listener = sqlx::postgres::PgListener::connect(db.url()).await.unwrap();
    listener.listen(super::DONE_CHANNEL).await.unwrap();
    let (t, scope, envelope, first) = two_step_job(&db).await;
    let wf = t.job(scope, first).await.unwrap().workflow_id;
    // the test runs the jobs; the nodes only beat and listen
    let run_one = |t: Transform| async move {
        let claimed = queue::claim(t.store(), 60_000).await.unwrap();
        runner::run(&t, claimed.expect("a job"), &CancellationToken::new()).await;
    };
    let stop = CancellationToken::new();
    let node = t.start(stop.clone());
    // its first heartbeat finds no other node: the job's end is announced to nobody
    tokio::time::sleep(Duration::from_millis(300)).await;
    run_one(t.clone()).await;
    assert_eq!(t.job(scope, first).await.unwrap().status, "OK");
    assert_eq!(heard(&mut listener, Duration::from_millis(500)).await, 0);

    // a second node starts: within a heartbeat the first one notifies again
    let other = Transform::new(db.store.clone(), t.silo().clone(), t.config().clone());
    let other_node = other.start(stop.clone());
    tokio::time::sleep(super::nodes::HEARTBEAT * 2).await;
    t.create_job(scope, job(wf, envelope)).await.unwrap();
    run_one(t.clone()).await;
    // the job's end is announced
    assert!(heard(&mut listener, Duration::from_millis(500)).await >= 1);
    stop.cancel();
    node.await.unwrap();
    other_node.await.unwrap();
}
