//! `silo_search_pending` (SQLite only): rows of the envelopes' search text waiting to enter the
//! full-text index `silo_search` (migration 0018 says why they wait).

use folio_store::{Backend, Store};
use sqlx::Row;

use crate::SiloResult;

/// Rows moved in one write transaction: a few milliseconds of the writer's turn.
const BATCH: i64 = 2000;

/// Moves every pending row into the full-text index, a batch a write transaction; answers how
/// many moved (none on PostgreSQL, which has no such table).
pub(crate) async fn index_all(store: &Store) -> SiloResult<u64> {
    if store.backend() != Backend::Sqlite {
        return Ok(0);
    }
    let mut moved = 0;
    loop {
        let batch = index_batch(store).await?;
        moved += batch;
        if batch < BATCH as u64 {
            return Ok(moved);
        }
    }
}

/// Moves the oldest pending rows, up to [`BATCH`], into the full-text index in one write
/// transaction; answers how many moved.
pub(crate) async fn index_batch(store: &Store) -> SiloResult<u64> {
    let mut tx = store.begin_write().await?;
    let last: Option<i64> = sqlx::query(&format!(
        "SELECT max(seq) AS last FROM \
         (SELECT seq FROM silo_search_pending ORDER BY seq LIMIT {BATCH})"
    ))
    .fetch_one(&mut tx)
    .await?
    .try_get("last")?;
    let Some(last) = last else {
        tx.rollback().await?;
        return Ok(0);
    };
    let moved = tx
        .write(
            sqlx::query(
                "INSERT INTO silo_search (workspace_id, envelope_id, version, text) \
                 SELECT workspace_id, envelope_id, version, text FROM silo_search_pending \
                 WHERE seq <= $1 ORDER BY seq",
            )
            .bind(last),
        )
        .await?
        .rows_affected();
    tx.write(sqlx::query("DELETE FROM silo_search_pending WHERE seq <= $1").bind(last))
        .await?;
    tx.commit().await?;
    Ok(moved)
}

/// Rows waiting, of every workspace.
pub(crate) async fn pending(store: &Store) -> SiloResult<i64> {
    let row = sqlx::query("SELECT count(*) AS n FROM silo_search_pending")
        .fetch_one(store.pool())
        .await?;
    Ok(row.try_get("n")?)
}

#[cfg(test)]
mod tests {
    use folio_api::limits::Limits;
    use folio_store::{Blobs, Scope, testing};

    use crate::{NewEnvelope, SearchQuery, Silo};

    async fn keys_found(silo: &Silo, ws: Scope, q: &str) -> Vec<String> {
        let search = SearchQuery {
            q: q.into(),
            limit: 10,
            ..SearchQuery::default()
        };
        let page = silo.search(ws, &search).await.unwrap();
        page.items.into_iter().filter_map(|e| e.key).collect()
    }

    #[tokio::test]
    async fn envelopes_are_found_while_waiting_for_the_index_and_after_entering_it() {
        let db = testing::sqlite().await;
        let silo = Silo::new(
            db.store.clone(),
            Blobs::local(db.dir()).unwrap(),
            Limits::default(),
        );
        let ws = Scope::new(db.store.create_workspace("a").await.unwrap().id);
        let other = Scope::new(db.store.create_workspace("b").await.unwrap().id);
        // Rows written by SQL alone wait: no write of the silo asked for an indexing run.
        for (scope, key) in [(ws, "alpha-1"), (ws, "alpha-2"), (other, "alpha-3")] {
            sqlx::query(
                "INSERT INTO silo_envelopes (workspace_id, id, created_at, updated_at, key, \
                 env_schema, doc_schema, digest, signed, version, tags, meta, fingerprint, \
                 search_text) VALUES ($1, $2, 1, 1, $3, 'e', 'd', '0', 0, 'v1', '[]', '{}', \
                 'f', $4)",
            )
            .bind(scope.workspace_id().to_string())
            .bind(uuid::Uuid::now_v7().to_string())
            .bind(key)
            .bind(key.replace('-', " "))
            .execute(db.store.pool())
            .await
            .unwrap();
        }
        assert_eq!(silo.search_pending().await.unwrap(), 3);
        let indexed = "SELECT count(*) FROM silo_search WHERE silo_search MATCH 'alpha'";
        let in_index = || async {
            let n: i64 = sqlx::query_scalar(indexed)
                .fetch_one(db.store.pool())
                .await
                .unwrap();
            n
        };
        assert_eq!(in_index().await, 0);
        assert_eq!(keys_found(&silo, ws, "alpha").await, ["alpha-2", "alpha-1"]);
        assert_eq!(keys_found(&silo, ws, "alpha-2").await, ["alpha-2"]);
        assert_eq!(keys_found(&silo, other, "alpha").await, ["alpha-3"]);

        assert_eq!(silo.index_search().await.unwrap(), 3);
        assert_eq!(silo.search_pending().await.unwrap(), 0);
        assert_eq!(in_index().await, 3);
        assert_eq!(keys_found(&silo, ws, "alpha").await, ["alpha-2", "alpha-1"]);
        assert_eq!(keys_found(&silo, other, "alpha").await, ["alpha-3"]);
        assert_eq!(silo.index_search().await.unwrap(), 0);

        // A write of the silo asks for a run soon after.
        let note = serde_json::json!({
            "$schema": "https://gobl.org/draft-0/note/message", "title": "t"
        });
        let new = NewEnvelope {
            key: Some("beta-1".into()),
            data: note.to_string(),
            ..NewEnvelope::default()
        };
        silo.create(ws, new).await.unwrap();
        assert_eq!(keys_found(&silo, ws, "beta").await, ["beta-1"]);
        for _ in 0..200 {
            if silo.search_pending().await.unwrap() == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(silo.search_pending().await.unwrap(), 0);
        assert_eq!(keys_found(&silo, ws, "beta").await, ["beta-1"]);
    }
}
