//! State changes of envelopes.

use chrono::{DateTime, SubsecRound, Utc};
use folio_store::{Scope, WriteTx};
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};
use crate::model::{NewState, State};
use crate::{Silo, db};

/// The states workflows give envelopes (WIRE.md); the console offers them as filters.
pub const STATES: [&str; 10] = [
    "draft",
    "processing",
    "registered",
    "completed",
    "sent",
    "received",
    "error",
    "rejected",
    "paid",
    "void",
];

impl Silo {
    /// Records a state change and makes it the envelope's current state.
    pub async fn set_state(&self, ws: Scope, id: Uuid, new: NewState) -> SiloResult<State> {
        let state = new_state(new)?;
        let mut tx = self.store().begin_write().await?;
        let found = db::states::make_current(&mut tx, ws, id, &state.key, state.created_at).await?;
        add_to_history(tx, found, ws, id, &state).await?;
        Ok(state)
    }

    /// Records a state with the time it happened, `at`, which may be in the past (a state
    /// reported late). It becomes the envelope's current state only when no later state is
    /// recorded. A repeat (the same `at` and key) answers the recorded state.
    pub async fn set_state_at(
        &self,
        ws: Scope,
        id: Uuid,
        at: DateTime<Utc>,
        new: NewState,
    ) -> SiloResult<State> {
        let mut state = new_state(new)?;
        let at = at.trunc_subsecs(3);
        state.created_at = at;
        let mut tx = self.store().begin_write().await?;
        if let Some(recorded) = db::states::find_at(&mut tx, ws, id, at, &state.key).await? {
            tx.rollback().await?;
            return Ok(recorded);
        }
        let found = db::states::make_current_unless_later(
            &mut tx,
            ws,
            id,
            &state.key,
            at,
            folio_store::now(),
        )
        .await?;
        add_to_history(tx, found, ws, id, &state).await?;
        Ok(state)
    }

    /// Like [`Silo::set_state`], but at most once per `src_id`, and in the caller's transaction
    /// `tx`: when the envelope already has a state with this `new.src_id`, nothing changes and
    /// the answer is `None` (a state without `src_id` is always added). The check and the change are one statement on PostgreSQL, so a
    /// caller re-running after a crash (a workflow step, whose intent id is the `src_id`) never
    /// adds the state twice; the caller commits it with its own writes (the step's progress).
    pub async fn set_state_once(
        &self,
        tx: &mut WriteTx,
        ws: Scope,
        id: Uuid,
        new: NewState,
    ) -> SiloResult<Option<State>> {
        let state = new_state(new)?;
        if db::states::add_once(self.store().backend(), tx, ws, id, &state).await? {
            return Ok(Some(state));
        }
        // the state was there already, or there is no such envelope
        if !db::envelopes::exists(&mut *tx, ws, id).await? {
            return Err(SiloError::NotFound("envelope"));
        }
        Ok(None)
    }

    /// The envelope's states, oldest first.
    pub async fn states(&self, ws: Scope, id: Uuid) -> SiloResult<Vec<State>> {
        self.exists(ws, id).await?;
        db::states::list(self.store(), ws, id).await
    }
}

/// Ends a state change whose envelope update `found` the envelope or not: the state joins the
/// history, or nothing changes.
async fn add_to_history(
    mut tx: folio_store::WriteTx,
    found: bool,
    ws: Scope,
    id: Uuid,
    state: &State,
) -> SiloResult<()> {
    if !found {
        tx.rollback().await?;
        return Err(SiloError::NotFound("envelope"));
    }
    db::states::insert(&mut tx, ws, id, state).await?;
    tx.commit().await?;
    Ok(())
}

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
