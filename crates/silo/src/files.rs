//! Files attached to envelopes: bytes in the content-addressed blob store, rows in the database.
//!
//! The blob is written before the row; a failed request can leave an unreferenced blob (harmless,
//! content-addressed) but never a row without its envelope or its bytes.

use bytes::Bytes;
use folio_store::{StoreError, millis, now};
use sha2::{Digest as _, Sha256};
use sqlx::Row;
use uuid::Uuid;

use crate::Silo;
use crate::error::{SiloError, SiloResult};
use crate::model::{FileInfo, NewFile};
use crate::rows::{self, FILE_COLUMNS, to_json};

impl Silo {
    /// Attaches a file. The same file id with the same content returns the stored file; with
    /// other content it is a conflict. A file with the same `key` and `category` as a current
    /// file replaces it (the earlier one stays downloadable by its id).
    pub async fn put_file(
        &self,
        workspace_id: Uuid,
        envelope_id: Uuid,
        file_id: Uuid,
        new: NewFile,
    ) -> SiloResult<FileInfo> {
        if new.name.trim().is_empty() {
            return Err(SiloError::invalid("name", "required"));
        }
        if new.bytes.len() > self.limits().file_bytes {
            return Err(SiloError::TooLarge(format!(
                "the file is larger than {} bytes",
                self.limits().file_bytes
            )));
        }
        let hash = hex::encode(Sha256::digest(&new.bytes));
        let file = FileInfo {
            id: file_id,
            created_at: now(),
            mime: new
                .mime
                .clone()
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| guess_mime(&new.name).into()),
            name: new.name,
            desc: new.desc,
            key: new.key,
            category: new.category,
            hash,
            size: new.bytes.len() as i64,
            meta: new.meta,
            replaced_by: None,
        };
        // Make sure the envelope exists before storing bytes for it.
        self.exists(workspace_id, envelope_id).await?;
        self.blobs().put(&file.hash, Bytes::from(new.bytes)).await?;
        let ws = workspace_id.to_string();
        let env = envelope_id.to_string();
        let mut tx = self.store().begin_write().await?;
        let existing = sqlx::query(&format!(
            "SELECT {FILE_COLUMNS} FROM silo_files WHERE workspace_id = $1 AND envelope_id = $2 AND id = $3"
        ))
        .bind(&ws)
        .bind(&env)
        .bind(file_id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = existing {
            tx.rollback().await?;
            let (_, stored) = rows::file(&row)?;
            let same = stored.hash == file.hash
                && stored.name == file.name
                && stored.mime == file.mime
                && stored.key == file.key
                && stored.category == file.category;
            return if same {
                Ok(stored)
            } else {
                Err(SiloError::Conflict(format!(
                    "file {file_id} already exists with other content"
                )))
            };
        }
        let current: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM silo_files WHERE workspace_id = $1 AND envelope_id = $2 \
             AND replaced_by IS NULL",
        )
        .bind(&ws)
        .bind(&env)
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
        let replaces = file.key.is_some();
        if !replaces && current as usize >= self.limits().files_per_envelope {
            tx.rollback().await?;
            return Err(SiloError::Limit(format!(
                "an envelope holds at most {} files",
                self.limits().files_per_envelope
            )));
        }
        let touched = sqlx::query(
            "UPDATE silo_envelopes SET updated_at = $3 WHERE workspace_id = $1 AND id = $2",
        )
        .bind(&ws)
        .bind(&env)
        .bind(millis(file.created_at))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if touched == 0 {
            tx.rollback().await?;
            return Err(SiloError::NotFound("envelope"));
        }
        if let Some(key) = &file.key {
            sqlx::query(
                "UPDATE silo_files SET replaced_by = $3 WHERE workspace_id = $1 AND envelope_id = $2 \
                 AND replaced_by IS NULL AND key = $4 AND COALESCE(category, '') = $5",
            )
            .bind(&ws)
            .bind(&env)
            .bind(file_id.to_string())
            .bind(key)
            .bind(file.category.clone().unwrap_or_default())
            .execute(&mut *tx)
            .await?;
            let after: i64 = sqlx::query(
                "SELECT COUNT(*) AS n FROM silo_files WHERE workspace_id = $1 AND envelope_id = $2 \
                 AND replaced_by IS NULL",
            )
            .bind(&ws)
            .bind(&env)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
            if after as usize >= self.limits().files_per_envelope {
                tx.rollback().await?;
                return Err(SiloError::Limit(format!(
                    "an envelope holds at most {} files",
                    self.limits().files_per_envelope
                )));
            }
        }
        sqlx::query(
            "INSERT INTO silo_files (workspace_id, envelope_id, id, created_at, name, descr, key, \
             category, hash, mime, size, meta, replaced_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL)",
        )
        .bind(&ws)
        .bind(&env)
        .bind(file_id.to_string())
        .bind(millis(file.created_at))
        .bind(file.name.clone())
        .bind(file.desc.clone())
        .bind(file.key.clone())
        .bind(file.category.clone())
        .bind(file.hash.clone())
        .bind(file.mime.clone())
        .bind(file.size)
        .bind(file.meta.as_ref().map(to_json))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(file)
    }

    /// A file's description and bytes (replaced files too).
    pub async fn get_file(
        &self,
        workspace_id: Uuid,
        envelope_id: Uuid,
        file_id: Uuid,
    ) -> SiloResult<(FileInfo, Bytes)> {
        let row = sqlx::query(&format!(
            "SELECT {FILE_COLUMNS} FROM silo_files WHERE workspace_id = $1 AND envelope_id = $2 AND id = $3"
        ))
        .bind(workspace_id.to_string())
        .bind(envelope_id.to_string())
        .bind(file_id.to_string())
        .fetch_optional(self.store().pool())
        .await?
        .ok_or(SiloError::NotFound("file"))?;
        let (_, file) = rows::file(&row)?;
        let bytes = match self.blobs().get(&file.hash).await {
            Ok(bytes) => bytes,
            // The row says the bytes were stored: their loss is the server's fault (500).
            Err(StoreError::NotFound) => {
                return Err(SiloError::Store(StoreError::Corrupt(format!(
                    "blob {} of file {file_id} is missing",
                    file.hash
                ))));
            }
            Err(e) => return Err(e.into()),
        };
        Ok((file, bytes))
    }

    /// 404 unless the envelope exists in the workspace.
    pub async fn exists(&self, workspace_id: Uuid, id: Uuid) -> SiloResult<()> {
        sqlx::query("SELECT id FROM silo_envelopes WHERE workspace_id = $1 AND id = $2")
            .bind(workspace_id.to_string())
            .bind(id.to_string())
            .fetch_optional(self.store().pool())
            .await?
            .ok_or(SiloError::NotFound("envelope"))?;
        Ok(())
    }
}

/// A media type from a file name's extension.
pub fn guess_mime(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("pdf") => "application/pdf",
        Some("xml") => "application/xml",
        Some("json") => "application/json",
        Some("txt") => "text/plain",
        Some("csv") => "text/csv",
        Some("html" | "htm") => "text/html",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("zip") => "application/zip",
        _ => "application/octet-stream",
    }
}
