//! The caller's row of `workspaces` (the columns the access service reads and writes; the
//! table itself is folio_store's).

use chrono::{DateTime, Utc};
use folio_api::FieldError;
use folio_store::{Scope, Store, StoreError, WriteQuery, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::error::{AccessError, AccessResult};
use crate::model::{Profile, ProfileChange};

const COLUMNS: &str = "id, name, slug, country, logo_url, created_at, updated_at";

/// The workspace of `ws`, if it still exists.
pub(crate) async fn get(store: &Store, ws: Scope) -> AccessResult<Option<Profile>> {
    let sql = format!("SELECT {COLUMNS} FROM workspaces WHERE id = $1");
    let row = sqlx::query(&sql)
        .bind(ws.workspace_id().to_string())
        .fetch_optional(store.pool())
        .await?;
    row.as_ref().map(decode).transpose()
}

/// Applies a checked change in one statement and returns the row as it is now; `None` when the
/// workspace is gone. A slug or name held by another workspace is [`AccessError::Taken`].
pub(crate) async fn update(
    store: &Store,
    ws: Scope,
    change: &ProfileChange,
    at: DateTime<Utc>,
) -> AccessResult<Option<Profile>> {
    // NULL keeps a column; '' clears the clearable ones.
    let sql = format!(
        "UPDATE workspaces SET name = COALESCE($2, name), slug = COALESCE($3, slug), \
         logo_url = CASE WHEN $4 IS NULL THEN logo_url ELSE NULLIF($4, '') END, \
         country = CASE WHEN $5 IS NULL THEN country ELSE NULLIF($5, '') END, \
         updated_at = $6 WHERE id = $1 RETURNING {COLUMNS}"
    );
    let rows = sqlx::query(&sql)
        .bind(ws.workspace_id().to_string())
        .bind(change.name.clone())
        .bind(change.slug.clone())
        .bind(change.logo_url.clone())
        .bind(change.country.clone())
        .bind(millis(at))
        .write_returning(store)
        .await
        .map_err(taken)?;
    rows.first().map(decode).transpose()
}

/// A unique violation names the value another workspace holds.
fn taken(err: StoreError) -> AccessError {
    let StoreError::Database(sqlx::Error::Database(db)) = &err else {
        return err.into();
    };
    if !db.is_unique_violation() {
        return err.into();
    }
    let field = if db.message().contains("slug") {
        "slug"
    } else {
        "name"
    };
    AccessError::Taken(FieldError::new(
        field,
        format!("another workspace has this {field}"),
    ))
}

fn decode(row: &AnyRow) -> AccessResult<Profile> {
    let created_at = from_millis(row.try_get("created_at")?);
    let updated_at: Option<i64> = row.try_get("updated_at")?;
    Ok(Profile {
        id: folio_store::rows::uuid(row, "id")?,
        name: row.try_get("name")?,
        slug: row.try_get("slug")?,
        country: row.try_get("country")?,
        logo_url: row.try_get("logo_url")?,
        created_at,
        updated_at: updated_at.map_or(created_at, from_millis),
    })
}
