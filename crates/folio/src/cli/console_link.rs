//! `folio console-link`: prints a one-time link that signs a browser into the web console.

use std::process::ExitCode;

use anyhow::Context;

use super::ConsoleLinkArgs;

pub(super) fn run(args: ConsoleLinkArgs) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async {
        let store = super::open_store(&args.storage).await?;
        let workspace = store
            .workspace_by_name(&args.workspace)
            .await?
            .with_context(|| format!("no workspace named {:?}", args.workspace))?;
        let lifetime =
            chrono::Duration::from_std(*args.expires_in).context("--expires-in is too long")?;
        let path = folio_console::issue_link(&store, workspace.id, lifetime).await?;
        store.close().await;
        println!("{}{path}", args.url.trim_end_matches('/'));
        Ok(ExitCode::SUCCESS)
    })
}
