//! State changes of envelopes.

use chrono::{DateTime, SubsecRound, Utc};
use folio_store::{Backend, millis};
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
        let state = new_state(new)?;
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
        add_to_history(tx, touched, workspace_id, id, &state).await?;
        Ok(state)
    }

    /// Records a state with the time it happened, `at`, which may be in the past (a state
    /// reported late). It becomes the envelope's current state only when no later state is
    /// recorded. A repeat (the same `at` and key) answers the recorded state.
    pub async fn set_state_at(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        at: DateTime<Utc>,
        new: NewState,
    ) -> SiloResult<State> {
        let mut state = new_state(new)?;
        let at = at.trunc_subsecs(3);
        state.created_at = at;
        let mut tx = self.store().begin_write().await?;
        let repeat = sqlx::query(&format!(
            "SELECT {STATE_COLUMNS} FROM silo_states WHERE workspace_id = $1 AND envelope_id = $2 \
             AND created_at = $3 AND key = $4"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(millis(at))
        .bind(state.key.clone())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = repeat {
            tx.rollback().await?;
            return Ok(rows::state(&row)?);
        }
        let touched = sqlx::query(
            "UPDATE silo_envelopes SET updated_at = $5, state = CASE WHEN EXISTS (SELECT 1 FROM \
             silo_states WHERE workspace_id = $1 AND envelope_id = $2 AND created_at > $4) \
             THEN state ELSE $3 END WHERE workspace_id = $1 AND id = $2",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(state.key.clone())
        .bind(millis(at))
        .bind(millis(folio_store::now()))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        add_to_history(tx, touched, workspace_id, id, &state).await?;
        Ok(state)
    }

    /// Like [`Silo::set_state`], but at most once per `src_id`: when the envelope already has a
    /// state with this `new.src_id`, nothing changes and the answer is `None`. The check and the
    /// change are one transaction (one statement on PostgreSQL), so a caller re-running after a
    /// crash (a workflow step, whose intent id is the `src_id`) never adds the state twice.
    pub async fn set_state_once(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        new: NewState,
    ) -> SiloResult<Option<State>> {
        if new.src_id.is_none() {
            return self.set_state(workspace_id, id, new).await.map(Some);
        }
        let state = new_state(new)?;
        let not_yet = "workspace_id = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM silo_states \
                       WHERE workspace_id = $1 AND envelope_id = $2 AND src_id = $9)";
        let added = match self.store().backend() {
            Backend::Postgres => {
                let sql = format!(
                    "WITH touched AS (UPDATE silo_envelopes SET state = $5, updated_at = $4 \
                     WHERE {not_yet} RETURNING id) \
                     INSERT INTO silo_states (workspace_id, envelope_id, id, created_at, key, notes, \
                     meta, src, src_id) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM touched"
                );
                bind_state(sqlx::query(&sql), workspace_id, id, &state)
                    .execute(self.store().pool())
                    .await?
                    .rows_affected()
                    == 1
            }
            Backend::Sqlite => {
                let mut tx = self.store().begin_write().await?;
                let sql = format!(
                    "UPDATE silo_envelopes SET state = $5, updated_at = $4 WHERE {not_yet}"
                );
                let touched = bind_state(sqlx::query(&sql), workspace_id, id, &state)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                if touched == 1 {
                    bind_state(sqlx::query(INSERT_STATE), workspace_id, id, &state)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    true
                } else {
                    tx.rollback().await?;
                    false
                }
            }
        };
        if added {
            return Ok(Some(state));
        }
        // the state was there already, or there is no such envelope
        self.exists(workspace_id, id).await?;
        Ok(None)
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

/// Ends a state change whose envelope update touched `touched` rows: the state joins the
/// history, or the envelope is not found and nothing changes.
async fn add_to_history(
    mut tx: folio_store::WriteTx,
    touched: u64,
    workspace_id: Uuid,
    id: Uuid,
    state: &State,
) -> SiloResult<()> {
    if touched == 0 {
        tx.rollback().await?;
        return Err(SiloError::NotFound("envelope"));
    }
    bind_state(sqlx::query(INSERT_STATE), workspace_id, id, state)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

const INSERT_STATE: &str = "INSERT INTO silo_states (workspace_id, envelope_id, id, created_at, \
                            key, notes, meta, src, src_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// A new state row from a request, its key checked.
fn new_state(new: NewState) -> SiloResult<State> {
    // exactly what `StateIn`'s schema pattern states
    let key = new.key.as_str();
    if key.is_empty() || key.chars().count() > 64 || key.chars().any(char::is_whitespace) {
        return Err(SiloError::invalid(
            "key",
            "a short word without spaces is required",
        ));
    }
    Ok(State {
        id: Uuid::now_v7(),
        created_at: folio_store::now(),
        key: key.to_owned(),
        notes: new.notes,
        meta: new.meta,
        src: new.src,
        src_id: new.src_id,
    })
}

/// Binds `$1`..`$9`: workspace, envelope, then the state's columns in [`INSERT_STATE`] order.
fn bind_state<'q>(
    q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    workspace_id: Uuid,
    id: Uuid,
    state: &State,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    q.bind(workspace_id.to_string())
        .bind(id.to_string())
        .bind(state.id.to_string())
        .bind(millis(state.created_at))
        .bind(state.key.clone())
        .bind(state.notes.clone())
        .bind(state.meta.as_ref().map(to_json))
        .bind(state.src.clone())
        .bind(state.src_id.clone())
}
