//! Content-addressed file storage: a local folder (default) or an S3-compatible bucket.

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::prefix::PrefixStore;

use crate::StoreError;

/// Blob storage keyed by the SHA-256 of the content (`sha256/<first 2 hex>/<hex>`).
///
/// Writes are idempotent: the same content always lands at the same key. Local writes go to a
/// temporary file that is renamed into place, so readers never see a partial blob.
#[derive(Clone)]
pub struct Blobs {
    inner: Arc<dyn ObjectStore>,
}

impl std::fmt::Debug for Blobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Blobs({})", self.inner)
    }
}

impl Blobs {
    /// Blobs in a local folder, created if missing.
    pub fn local(dir: &Path) -> Result<Blobs, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            StoreError::Invalid(format!("cannot create blob folder {}: {e}", dir.display()))
        })?;
        let fs = LocalFileSystem::new_with_prefix(dir)?;
        Ok(Blobs::from_object_store(Arc::new(fs)))
    }

    /// Blobs at `s3://bucket/optional/prefix` (endpoint, region and credentials come from the
    /// usual `AWS_*` environment variables, e.g. `AWS_ENDPOINT`, `AWS_ACCESS_KEY_ID`) or at
    /// `file:///absolute/path`.
    pub fn from_url(url: &str) -> Result<Blobs, StoreError> {
        if let Some(path) = url.strip_prefix("file://") {
            if !path.starts_with('/') {
                return Err(StoreError::Invalid(format!(
                    "file URL needs an absolute path: {url:?}"
                )));
            }
            return Blobs::local(Path::new(path));
        }
        let Some(rest) = url.strip_prefix("s3://") else {
            return Err(StoreError::Invalid(format!(
                "unsupported blob store URL {url:?} (use s3://bucket/prefix or file:///path)"
            )));
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(StoreError::Invalid(format!("no bucket in {url:?}")));
        }
        let s3 = AmazonS3Builder::from_env()
            .with_url(format!("s3://{bucket}"))
            .build()?;
        let prefix = prefix.trim_matches('/');
        let inner: Arc<dyn ObjectStore> = if prefix.is_empty() {
            Arc::new(s3)
        } else {
            Arc::new(PrefixStore::new(s3, prefix))
        };
        Ok(Blobs::from_object_store(inner))
    }

    /// Wrap any object store (e.g. `object_store::memory::InMemory` in tests).
    pub fn from_object_store(inner: Arc<dyn ObjectStore>) -> Blobs {
        Blobs { inner }
    }

    /// Store `bytes` under their SHA-256 (lowercase hex, as computed by the caller).
    /// Does nothing if that blob is already present.
    pub async fn put(&self, sha256_hex: &str, bytes: Bytes) -> Result<(), StoreError> {
        let key = key(sha256_hex)?;
        if self.head(&key).await? {
            return Ok(());
        }
        self.inner.put(&key, bytes.into()).await?;
        Ok(())
    }

    /// The blob with this SHA-256; [`StoreError::NotFound`] if absent.
    pub async fn get(&self, sha256_hex: &str) -> Result<Bytes, StoreError> {
        let key = key(sha256_hex)?;
        match self.inner.get(&key).await {
            Ok(found) => Ok(found.bytes().await?),
            Err(object_store::Error::NotFound { .. }) => Err(StoreError::NotFound),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether the blob with this SHA-256 is present.
    pub async fn exists(&self, sha256_hex: &str) -> Result<bool, StoreError> {
        self.head(&key(sha256_hex)?).await
    }

    /// Stores a temporary blob (the spool's) under its own id, `spool/<uuid>`: unlike the
    /// content-addressed ones it belongs to one row and is deleted with it.
    pub async fn put_temporary(&self, id: uuid::Uuid, bytes: Bytes) -> Result<(), StoreError> {
        self.inner.put(&temporary(id), bytes.into()).await?;
        Ok(())
    }

    /// The temporary blob `id`; [`StoreError::NotFound`] if absent.
    pub async fn get_temporary(&self, id: uuid::Uuid) -> Result<Bytes, StoreError> {
        match self.inner.get(&temporary(id)).await {
            Ok(found) => Ok(found.bytes().await?),
            Err(object_store::Error::NotFound { .. }) => Err(StoreError::NotFound),
            Err(e) => Err(e.into()),
        }
    }

    /// Deletes the temporary blob `id`; one already gone is no error (two nodes may sweep the
    /// same expired row).
    pub async fn delete_temporary(&self, id: uuid::Uuid) -> Result<(), StoreError> {
        match self.inner.delete(&temporary(id)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    async fn head(&self, key: &ObjectPath) -> Result<bool, StoreError> {
        match self.inner.head(key).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

/// The object key of a temporary blob.
fn temporary(id: uuid::Uuid) -> ObjectPath {
    ObjectPath::from(format!("spool/{}", id.as_simple()))
}

/// The object key of a digest; rejects anything but 64 lowercase hex digits, so a caller's string
/// can never address another path.
fn key(sha256_hex: &str) -> Result<ObjectPath, StoreError> {
    let ok = sha256_hex.len() == 64
        && sha256_hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !ok {
        return Err(StoreError::Invalid(format!(
            "not a lowercase hex SHA-256: {sha256_hex:?}"
        )));
    }
    Ok(ObjectPath::from(format!(
        "sha256/{}/{}",
        &sha256_hex[..2],
        sha256_hex
    )))
}
