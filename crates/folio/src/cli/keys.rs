//! `folio keys rotate`: re-seals every secret of the database under a new key-encryption key.

use std::process::ExitCode;

use anyhow::Context;
use folio_store::Kek;

use super::KeysCommand;
use crate::config::{DATA_KEY_FILE, KeySource};

pub(super) fn run(command: KeysCommand) -> anyhow::Result<ExitCode> {
    let KeysCommand::Rotate {
        new_key_file,
        storage,
    } = command;
    let storage = crate::config::resolve_storage(&storage)?;
    super::runtime()?.block_on(async {
        let store = crate::bootstrap::open_store(&storage).await?;
        let old = store.kek()?.id().to_string();
        let (new, created) = Kek::read_or_create_file(&new_key_file)?;
        if new.id() == old {
            store.close().await;
            anyhow::bail!(
                "{} holds the key in use ({old}): give a new key file",
                new_key_file.display()
            );
        }
        let count = store.rotate_key(&new).await;
        store.close().await;
        let unused = if created {
            format!(
                " ({} was written but is not in use)",
                new_key_file.display()
            )
        } else {
            String::new()
        };
        let count = count.with_context(|| {
            format!("nothing changed: the secrets are still sealed with key {old}{unused}")
        })?;
        let next = match storage.key {
            KeySource::DataFolder => format!(
                "replace {} with {} before the next start",
                storage.data.join(DATA_KEY_FILE).display(),
                new_key_file.display()
            ),
            _ => format!(
                "start every node with the key of {} (--key-file, FOLIO_KEY_FILE, key_file or \
                 FOLIO_KEY)",
                new_key_file.display()
            ),
        };
        eprintln!(
            "re-sealed {count} secrets under key {}; key {old} no longer opens them: {next}",
            new.id()
        );
        Ok(ExitCode::SUCCESS)
    })
}
