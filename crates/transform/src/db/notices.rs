//! Job notices to the other nodes: PostgreSQL's `pg_notify` (see `engine::notices`).

use folio_store::Store;
use uuid::Uuid;

/// One `pg_notify` per notice, in one statement of one fixed text (channels and payloads as
/// comma-separated lists: neither holds a comma).
pub(crate) async fn notify(
    store: &Store,
    batch: &[(&'static str, Uuid)],
) -> Result<(), sqlx::Error> {
    let channels: Vec<&str> = batch.iter().map(|(channel, _)| *channel).collect();
    let payloads: Vec<String> = batch.iter().map(|(_, job)| job.to_string()).collect();
    sqlx::query(
        "SELECT pg_notify(channel, payload) \
         FROM unnest(string_to_array($1, ','), string_to_array($2, ',')) AS n(channel, payload)",
    )
    .bind(channels.join(","))
    .bind(payloads.join(","))
    .execute(store.pool())
    .await?;
    Ok(())
}
