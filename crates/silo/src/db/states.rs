//! `silo_states` rows, and the envelope's current state they set.

use chrono::{DateTime, Utc};
use folio_store::{Backend, Query, Scope, Store, WriteTx, millis};
use uuid::Uuid;

use super::rows::{self, STATE_COLUMNS, to_json};
use crate::SiloResult;
use crate::model::State;

/// Makes `key` the envelope's current state; false when there is no such envelope.
pub(crate) async fn make_current(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    key: &str,
    at: DateTime<Utc>,
) -> SiloResult<bool> {
    let q = ws
        .query(
            "UPDATE silo_envelopes SET state = $3, updated_at = $4 \
             WHERE workspace_id = $1 AND id = $2",
        )
        .bind(envelope_id.to_string())
        .bind(key.to_owned())
        .bind(millis(at));
    let done = tx.write(q).await?;
    Ok(done.rows_affected() == 1)
}

/// Makes `key`, which happened at `at`, the current state unless a later state is recorded;
/// marks the envelope changed `now`. False when there is no such envelope.
pub(crate) async fn make_current_unless_later(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    key: &str,
    at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> SiloResult<bool> {
    let q = ws
        .query(
            "UPDATE silo_envelopes SET updated_at = $5, state = CASE WHEN EXISTS (SELECT 1 FROM \
             silo_states WHERE workspace_id = $1 AND envelope_id = $2 AND created_at > $4) \
             THEN state ELSE $3 END WHERE workspace_id = $1 AND id = $2",
        )
        .bind(envelope_id.to_string())
        .bind(key.to_owned())
        .bind(millis(at))
        .bind(millis(now));
    let done = tx.write(q).await?;
    Ok(done.rows_affected() == 1)
}

/// The state recorded with this time and key, if any.
pub(crate) async fn find_at(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    at: DateTime<Utc>,
    key: &str,
) -> SiloResult<Option<State>> {
    let sql = format!(
        "SELECT {STATE_COLUMNS} FROM silo_states WHERE workspace_id = $1 AND envelope_id = $2 \
         AND created_at = $3 AND key = $4"
    );
    let row = ws
        .query(&sql)
        .bind(envelope_id.to_string())
        .bind(millis(at))
        .bind(key.to_owned())
        .fetch_optional(&mut *tx)
        .await?;
    Ok(row.as_ref().map(rows::state).transpose()?)
}

/// Adds a state to the envelope's history.
pub(crate) async fn insert(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    state: &State,
) -> SiloResult<()> {
    let q = bind_state(ws.query(INSERT), envelope_id, state);
    tx.write(q).await?;
    Ok(())
}

/// The envelope check of [`add_once`]: the envelope exists and has no state from this `src_id` ($9) yet.
const NOT_YET: &str = "workspace_id = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM silo_states \
                       WHERE workspace_id = $1 AND envelope_id = $2 AND src_id = $9)";

/// Makes the state current and adds it, in one round trip, unless the envelope has a state
/// from the same `src_id` (a `NULL` one matches none); true when added.
pub(crate) async fn add_once(
    backend: Backend,
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    state: &State,
) -> SiloResult<bool> {
    let sql = backend.then_insert(
        &format!("UPDATE silo_envelopes SET state = $5, updated_at = $4 WHERE {NOT_YET}"),
        "INSERT INTO silo_states (workspace_id, envelope_id, id, created_at, key, notes, meta, \
         src, src_id)",
        "$1, $2, $3, $4, $5, $6, $7, $8, $9",
        "",
    );
    let done = tx
        .write(bind_state(ws.query(&sql), envelope_id, state))
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The envelope's states, oldest first.
pub(crate) async fn list(store: &Store, ws: Scope, envelope_id: Uuid) -> SiloResult<Vec<State>> {
    let sql = format!(
        "SELECT {STATE_COLUMNS} FROM silo_states WHERE workspace_id = $1 AND envelope_id = $2 \
         ORDER BY created_at, id"
    );
    let rows = ws
        .query(&sql)
        .bind(envelope_id.to_string())
        .fetch_all(store.pool())
        .await?;
    Ok(rows.iter().map(rows::state).collect::<Result<_, _>>()?)
}

const INSERT: &str = "INSERT INTO silo_states (workspace_id, envelope_id, id, created_at, key, \
                      notes, meta, src, src_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// Binds `$2`..`$9` (the scope bound `$1`): the envelope, then the state's columns in
/// [`INSERT`] order.
fn bind_state<'q>(q: Query<'q>, envelope_id: Uuid, state: &State) -> Query<'q> {
    q.bind(envelope_id.to_string())
        .bind(state.id.to_string())
        .bind(millis(state.created_at))
        .bind(state.key.clone())
        .bind(state.notes.clone())
        .bind(state.meta.as_ref().map(to_json))
        .bind(state.src.clone())
        .bind(state.src_id.clone())
}
