//! State changes of envelopes.

use folio_store::millis;
use uuid::Uuid;

use crate::Silo;
use crate::error::{SiloError, SiloResult};
use crate::model::{NewState, State};
use crate::rows::{self, STATE_COLUMNS, to_json};

impl Silo {
    /// Records a state change and makes it the envelope's current state.
    pub async fn set_state(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        new: NewState,
    ) -> SiloResult<State> {
        let key = new.key.trim();
        if key.is_empty() || key.len() > 64 || key.chars().any(char::is_whitespace) {
            return Err(SiloError::invalid(
                "key",
                "a short word without spaces is required",
            ));
        }
        let state = State {
            id: Uuid::now_v7(),
            created_at: folio_store::now(),
            key: key.to_owned(),
            notes: new.notes,
            meta: new.meta,
            src: new.src,
            src_id: new.src_id,
        };
        let mut tx = self.store().begin_write().await?;
        let touched = sqlx::query(
            "UPDATE silo_envelopes SET state = $3, updated_at = $4 WHERE workspace_id = $1 AND id = $2",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(state.key.clone())
        .bind(millis(state.created_at))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if touched == 0 {
            tx.rollback().await?;
            return Err(SiloError::NotFound("envelope"));
        }
        sqlx::query(
            "INSERT INTO silo_states (workspace_id, envelope_id, id, created_at, key, notes, meta, src, src_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(state.id.to_string())
        .bind(millis(state.created_at))
        .bind(state.key.clone())
        .bind(state.notes.clone())
        .bind(state.meta.as_ref().map(to_json))
        .bind(state.src.clone())
        .bind(state.src_id.clone())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(state)
    }

    /// The envelope's states, oldest first.
    pub async fn states(&self, workspace_id: Uuid, id: Uuid) -> SiloResult<Vec<State>> {
        self.exists(workspace_id, id).await?;
        let rows = sqlx::query(&format!(
            "SELECT {STATE_COLUMNS} FROM silo_states WHERE workspace_id = $1 AND envelope_id = $2 \
             ORDER BY created_at, id"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_all(self.store().pool())
        .await?;
        Ok(rows.iter().map(rows::state).collect::<Result<_, _>>()?)
    }
}
