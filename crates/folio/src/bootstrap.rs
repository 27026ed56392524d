//! Opening the store with its key-encryption key, and the first start: an empty database gets
//! the `default` workspace and a token for it, written to `<data>/token` (mode 0600) so the
//! operator can start calling the API at once.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use folio_api::auth::Authenticator;
use folio_store::{Store, Workspace};

use crate::config::Storage;

/// Name of the workspace created on first start.
pub const DEFAULT_WORKSPACE: &str = "default";

/// Opens the database with the key-encryption key of `storage` (creating `<data>/folio.key` on
/// first start when no key is configured), seals the secrets an older folio wrote in plain text,
/// and refuses, naming both key ids, a key that cannot open the secrets stored.
pub async fn open_store(storage: &Storage) -> anyhow::Result<Store> {
    std::fs::create_dir_all(&storage.data)
        .with_context(|| format!("creating data folder {}", storage.data.display()))?;
    let key = storage.key.load(&storage.data)?;
    let store = Store::open(&storage.database)
        .await
        .with_context(|| format!("opening database {}", redact(&storage.database)))?
        .with_key(key);
    let protected = match store.protect_secrets().await {
        Ok(protected) => protected,
        Err(err) => {
            store.close().await;
            return Err(anyhow::Error::new(err).context(format!(
                "the key-encryption key does not open the secrets of database {}",
                redact(&storage.database)
            )));
        }
    };
    if protected.upgraded > 0 {
        tracing::info!(
            count = protected.upgraded,
            key = store.kek()?.id(),
            "sealed secrets stored in plain text by an older folio"
        );
    }
    Ok(store)
}

/// Creates a workspace with everything a workspace needs (the services' per-workspace set-up).
pub async fn create_workspace(store: &Store, name: &str) -> anyhow::Result<Workspace> {
    let workspace = store.create_workspace(name).await?;
    // Each workspace signs with its own ES256 key, made with the workspace.
    folio_silo::ensure_workspace_key(store, folio_store::Scope::new(workspace.id)).await?;
    Ok(workspace)
}

/// On an empty database: creates `default` and writes its token file. Returns the file's path
/// when it wrote one. Safe when several nodes start at once: only the node whose workspace
/// insert wins writes a token.
pub async fn first_start(
    store: &Store,
    auth: &Authenticator,
    data: &Path,
) -> anyhow::Result<Option<PathBuf>> {
    if store.count_workspaces().await? > 0 {
        return Ok(None);
    }
    let workspace = match create_workspace(store, DEFAULT_WORKSPACE).await {
        Ok(workspace) => workspace,
        Err(err) if store.workspace_by_name(DEFAULT_WORKSPACE).await?.is_some() => {
            tracing::debug!(error = %err, "another node created the default workspace");
            return Ok(None);
        }
        Err(err) => return Err(err),
    };
    let (_, token) = auth.issue(workspace.id, None).await?;
    let path = data.join("token");
    write_private(&path, &token)?;
    Ok(Some(path))
}

/// Writes a file only its owner can read.
fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    Ok(())
}

/// A database URL without its password, for logs and errors. It lives here, next to its only
/// callers, so the server (which calls this module) is not imported back.
pub fn redact(database: &str) -> String {
    match (database.find("://"), database.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &database[scheme + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &database[..scheme + 3],
                    &credentials[..colon],
                    &database[at..]
                ),
                None => database.to_string(),
            }
        }
        _ => database.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            super::redact("postgres://folio:secret@db:5432/folio"),
            "postgres://folio:***@db:5432/folio"
        );
        assert_eq!(
            super::redact("./folio-data/folio.db"),
            "./folio-data/folio.db"
        );
    }
}
