//! Files attached to envelopes: bytes in the content-addressed blob store, rows in the database.
//!
//! The blob is written before the row; a failed request can leave an unreferenced blob (harmless,
//! content-addressed) but never a row without its envelope or its bytes.

use bytes::Bytes;
use folio_store::{Scope, StoreError, WriteTx, now};
use sha2::{Digest as _, Sha256};
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};
use crate::model::{FileInfo, NewFile};
use crate::{Silo, db};

impl Silo {
    /// Attaches a file. The same file id with the same content returns the stored file; with
    /// other content it is a conflict. A file with the same `key` and `category` as a current
    /// file replaces it (the earlier one stays downloadable by its id).
    pub async fn put_file(
        &self,
        ws: Scope,
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
        self.exists(ws, envelope_id).await?;
        self.blobs().put(&file.hash, Bytes::from(new.bytes)).await?;
        let mut tx = self.store().begin_write().await?;
        if let Some(stored) = db::files::get(&mut *tx, ws, envelope_id, file_id).await? {
            tx.rollback().await?;
            return same_file(stored, &file);
        }
        if let Err(e) = self.add_file(&mut tx, ws, envelope_id, &file).await {
            tx.rollback().await?;
            return Err(e);
        }
        tx.commit().await?;
        Ok(file)
    }

    /// Adds a new file within the envelope's limit, replacing the current file with its key and
    /// category.
    async fn add_file(
        &self,
        tx: &mut WriteTx,
        ws: Scope,
        envelope_id: Uuid,
        file: &FileInfo,
    ) -> SiloResult<()> {
        let max = self.limits().files_per_envelope;
        let full = || SiloError::Limit(format!("an envelope holds at most {max} files"));
        if file.key.is_none() && db::files::count_current(tx, ws, envelope_id).await? >= max {
            return Err(full());
        }
        if !db::envelopes::touch(tx, ws, envelope_id, file.created_at).await? {
            return Err(SiloError::NotFound("envelope"));
        }
        if file.key.is_some() {
            db::files::replace_keyed(tx, ws, envelope_id, file).await?;
            if db::files::count_current(tx, ws, envelope_id).await? >= max {
                return Err(full());
            }
        }
        db::files::insert(tx, ws, envelope_id, file).await
    }

    /// A file's description and bytes (replaced files too).
    pub async fn get_file(
        &self,
        ws: Scope,
        envelope_id: Uuid,
        file_id: Uuid,
    ) -> SiloResult<(FileInfo, Bytes)> {
        let file = db::files::get(self.store().pool(), ws, envelope_id, file_id)
            .await?
            .ok_or(SiloError::NotFound("file"))?;
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
    pub async fn exists(&self, ws: Scope, id: Uuid) -> SiloResult<()> {
        if db::envelopes::exists(self.store().pool(), ws, id).await? {
            Ok(())
        } else {
            Err(SiloError::NotFound("envelope"))
        }
    }
}

/// A repeated file id: the stored file when it is the same file, else a conflict.
fn same_file(stored: FileInfo, file: &FileInfo) -> SiloResult<FileInfo> {
    let same = stored.hash == file.hash
        && stored.name == file.name
        && stored.mime == file.mime
        && stored.key == file.key
        && stored.category == file.category;
    if same {
        Ok(stored)
    } else {
        Err(SiloError::Conflict(format!(
            "file {} already exists with other content",
            file.id
        )))
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
