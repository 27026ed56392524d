//! `folio workspace create NAME`.

use std::process::ExitCode;

use crate::config::StorageArgs;

pub(super) fn create(storage: &StorageArgs, name: &str) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async {
        let store = super::open_store(storage).await?;
        let workspace = crate::bootstrap::create_workspace(&store, name).await?;
        println!("{} {}", workspace.id, workspace.name);
        store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}
