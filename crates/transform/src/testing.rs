//! What the crate's tests against real databases share.

use folio_api::limits::Limits;
use folio_silo::{NewEnvelope, Silo};
use folio_store::testing::TestDb;
use folio_store::{Blobs, Scope};
use serde_json::json;
use uuid::Uuid;

use crate::model::NewJob;
use crate::{Transform, TransformConfig};

/// A service without worker tasks (the test stands in for them) with this lease, a new
/// workspace, and a new envelope in it.
pub(crate) async fn service(db: &TestDb, lease_ms: u64) -> (Transform, Scope, Uuid) {
    let store = &db.store;
    let scope = Scope::new(store.create_workspace("tests").await.unwrap().id);
    let blobs = Blobs::local(&db.dir().join("files")).unwrap();
    let silo = Silo::new(store.clone(), blobs, Limits::default());
    let config = TransformConfig {
        workers: 0,
        lease_ms,
        ..TransformConfig::default()
    };
    let t = Transform::new(store.clone(), silo.clone(), config);
    let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hi"});
    let new = NewEnvelope {
        data: doc.to_string(),
        ..NewEnvelope::default()
    };
    let envelope = silo.create(scope, new).await.unwrap().id;
    (t, scope, envelope)
}

/// A new job of workflow `wf` on the envelope.
pub(crate) fn job(wf: Uuid, envelope: Uuid) -> NewJob {
    NewJob {
        id: Uuid::now_v7(),
        workflow_id: wf,
        silo_entry_id: Some(envelope),
        ..NewJob::default()
    }
}
