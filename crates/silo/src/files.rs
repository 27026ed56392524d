//! Files attached to envelopes: bytes in the content-addressed blob store, rows in the database.
//!
//! The blob is written before the row; a failed request can leave an unreferenced blob (harmless,
//! content-addressed) but never a row without its envelope or its bytes.

use bytes::Bytes;
use folio_store::{Scope, StoreError, WriteTx, now};
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
        mut new: NewFile,
    ) -> SiloResult<FileInfo> {
        self.check_file(&new, new.bytes.len() as u64)?;
        let hash = gobl::digest::sha256_hex(&new.bytes);
        let bytes = Bytes::from(std::mem::take(&mut new.bytes));
        let file = describe(file_id, new, hash, bytes.len() as i64, true);
        // Make sure the envelope exists before storing bytes for it.
        self.exists(ws, envelope_id).await?;
        self.blobs().put(&file.hash, bytes).await?;
        let mut tx = self.store().begin_write().await?;
        if let Some(stored) = db::files::get(&mut tx, ws, envelope_id, file_id).await? {
            if stored.stored {
                tx.rollback().await?;
                return same_file(stored, &file);
            }
            // The upload a placeholder waited for: its digest and size must be the promised ones.
            if let Err(e) = fills(&stored, &file) {
                tx.rollback().await?;
                return Err(e);
            }
            db::files::mark_stored(&mut tx, ws, envelope_id, file_id).await?;
            tx.commit().await?;
            return Ok(FileInfo {
                stored: true,
                ..stored
            });
        }
        if let Err(e) = self.add_file(&mut tx, ws, envelope_id, &file).await {
            tx.rollback().await?;
            return Err(e);
        }
        tx.commit().await?;
        Ok(file)
    }

    /// Attaches a placeholder: a file known by its SHA-256 (lowercase hex) and size, whose
    /// content a later [`Silo::put_file`] with the same id uploads. Until then it is listed
    /// with `stored` false and its download is 404. The same placeholder again returns it.
    pub async fn put_placeholder(
        &self,
        ws: Scope,
        envelope_id: Uuid,
        file_id: Uuid,
        new: NewFile,
        sha256: &str,
        size: i64,
    ) -> SiloResult<FileInfo> {
        let sha256 = sha256.to_ascii_lowercase();
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(SiloError::invalid(
                "sha256",
                "64 hexadecimal digits are required",
            ));
        }
        let size_ok = u64::try_from(size).map_err(|_| SiloError::invalid("size", "negative"))?;
        self.check_file(&new, size_ok)?;
        let file = describe(file_id, new, sha256, size, false);
        self.exists(ws, envelope_id).await?;
        let mut tx = self.store().begin_write().await?;
        if let Some(stored) = db::files::get(&mut tx, ws, envelope_id, file_id).await? {
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

    /// Fills the placeholder `file_id` with `bytes` as sent, under the name, type and labels it
    /// was announced with (as [`Silo::put_file`] with them would): 422 when they are not the
    /// announced content, the file itself when these bytes are already its content.
    pub async fn fill_file(
        &self,
        ws: Scope,
        envelope_id: Uuid,
        file_id: Uuid,
        bytes: Vec<u8>,
    ) -> SiloResult<FileInfo> {
        let file = db::files::get(self.store().pool(), ws, envelope_id, file_id)
            .await?
            .ok_or(SiloError::NotFound("file"))?;
        let new = NewFile {
            name: file.name,
            bytes,
            mime: Some(file.mime),
            desc: file.desc,
            key: file.key,
            category: file.category,
            meta: file.meta,
        };
        self.put_file(ws, envelope_id, file_id, new).await
    }

    /// A file needs a name, a media type a `Content-Type` header can carry, and fits the size
    /// limit.
    fn check_file(&self, new: &NewFile, size: u64) -> SiloResult<()> {
        if new.name.trim().is_empty() {
            return Err(SiloError::invalid("name", "required"));
        }
        if let Some(mime) = new.mime.as_deref().filter(|m| !is_media_type(m)) {
            return Err(SiloError::invalid("mime", not_a_media_type(mime)));
        }
        let max = self.limits().file_bytes;
        if size > max as u64 {
            return Err(SiloError::TooLarge(format!(
                "the file is larger than {max} bytes"
            )));
        }
        Ok(())
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
        if !file.stored {
            // A placeholder: its content is still to be uploaded.
            return Err(SiloError::NotFound("file content"));
        }
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

/// The description of a new file (its bytes are handled apart).
fn describe(id: Uuid, new: NewFile, hash: String, size: i64, stored: bool) -> FileInfo {
    FileInfo {
        id,
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
        size,
        meta: new.meta,
        replaced_by: None,
        stored,
    }
}

/// Whether an upload is the content a placeholder promised (422 naming the field if not).
fn fills(placeholder: &FileInfo, upload: &FileInfo) -> SiloResult<()> {
    if upload.hash != placeholder.hash {
        return Err(SiloError::invalid(
            "data",
            format!(
                "its SHA-256 is {}, the placeholder's is {}",
                upload.hash, placeholder.hash
            ),
        ));
    }
    if upload.size != placeholder.size {
        return Err(SiloError::invalid(
            "data",
            format!(
                "it has {} bytes, the placeholder {}",
                upload.size, placeholder.size
            ),
        ));
    }
    Ok(())
}

/// A repeated file id: the stored file when it is the same file, else a conflict.
fn same_file(stored: FileInfo, file: &FileInfo) -> SiloResult<FileInfo> {
    let same = stored.hash == file.hash
        && stored.size == file.size
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

/// Whether `text` is empty or a media type as RFC 6838 names them (`type/subtype`, each up to
/// 127 of its characters), with parameters of printable ASCII: what a `Content-Type` header
/// carries as given. The wire documents state it as the pattern
/// `^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(;[ -~]*)?)?$`.
pub fn is_media_type(text: &str) -> bool {
    let name = |part: &str| {
        (1..=127).contains(&part.len())
            && part.starts_with(|c: char| c.is_ascii_alphanumeric())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&^_.+-".contains(c))
    };
    let (essence, params) = text.split_once(';').unwrap_or((text, ""));
    text.is_empty()
        || (essence
            .split_once('/')
            .is_some_and(|(t, s)| name(t) && name(s))
            && params.chars().all(|c| matches!(c, ' '..='~')))
}

/// The message for a media type [`is_media_type`] refuses.
pub fn not_a_media_type(text: &str) -> String {
    format!("{text:?} is not a media type (type/subtype, e.g. application/xml)")
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
