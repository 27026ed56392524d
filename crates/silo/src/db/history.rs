//! An envelope's states and version ids in one statement (a page beside the envelope).

use folio_store::{Scope, Store, from_millis};
use sqlx::Row;
use uuid::Uuid;

use super::rows::{self, STATE_COLUMNS};
use crate::SiloResult;
use crate::model::History;

/// The envelope's [`History`]: its states and its versions' ids, each oldest first.
pub(crate) async fn of(store: &Store, ws: Scope, envelope_id: Uuid) -> SiloResult<History> {
    let sql = format!(
        "SELECT 's' AS kind, {STATE_COLUMNS} FROM silo_states \
         WHERE workspace_id = $1 AND envelope_id = $2 \
         UNION ALL \
         SELECT 'v', NULL, created_at, version, NULL, NULL, NULL, NULL FROM silo_versions \
         WHERE workspace_id = $1 AND envelope_id = $2 \
         ORDER BY 1, 3, 2, 4"
    );
    let rows = ws
        .query(&sql)
        .bind(envelope_id.to_string())
        .fetch_all(store.pool())
        .await?;
    let mut history = History::default();
    for row in &rows {
        let kind: String = row.try_get("kind")?;
        if kind == "s" {
            history.states.push(rows::state(row)?);
        } else {
            let at = from_millis(row.try_get("created_at")?);
            history.versions.push((row.try_get("key")?, at));
        }
    }
    Ok(history)
}

#[cfg(test)]
mod tests {
    use folio_api::limits::Limits;
    use folio_store::Blobs;
    use folio_store::testing::backends;

    use crate::{EnvelopeUpdate, NewEnvelope, NewState, Silo};

    fn note(title: &str) -> String {
        serde_json::json!({"$schema": "https://gobl.org/draft-0/note/message", "title": title})
            .to_string()
    }

    #[tokio::test]
    async fn states_and_versions_come_in_order_and_only_to_their_workspace() {
        for db in backends().await {
            let silo = Silo::new(
                db.store.clone(),
                Blobs::local(db.dir()).unwrap(),
                Limits::default(),
            );
            let ws = folio_store::Scope::new(db.store.create_workspace("a").await.unwrap().id);
            let other = folio_store::Scope::new(db.store.create_workspace("b").await.unwrap().id);
            let new = NewEnvelope {
                data: note("first"),
                ..NewEnvelope::default()
            };
            let first = silo.create(ws, new).await.unwrap();
            for key in ["processing", "sent"] {
                let state = NewState {
                    key: key.into(),
                    ..NewState::default()
                };
                silo.set_state(ws, first.id, state).await.unwrap();
            }
            // versions of the same millisecond would order by their ids
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
            let update = EnvelopeUpdate {
                data: Some(note("second")),
                ..EnvelopeUpdate::default()
            };
            let second = silo.update(ws, first.id, update).await.unwrap();

            let h = silo.history(ws, first.id).await.unwrap();
            let states: Vec<_> = h.states.iter().map(|s| s.key.as_str()).collect();
            assert_eq!(states, ["processing", "sent"], "{}", db.label);
            let versions: Vec<_> = h.versions.iter().map(|(v, _)| v.clone()).collect();
            assert_eq!(versions, [first.version, second.version], "{}", db.label);
            assert!(h.versions[0].1 <= h.versions[1].1);

            let stranger = silo.history(other, first.id).await.unwrap();
            assert!(stranger.states.is_empty() && stranger.versions.is_empty());
        }
    }
}
