//! `folio webhook-secret show | rotate`: the secret receivers verify deliveries with.

use std::process::ExitCode;

use anyhow::Context;
use folio_transform::signing;

use super::WebhookSecretCommand;

pub(super) fn run(command: WebhookSecretCommand) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async {
        let (workspace, storage) = match &command {
            WebhookSecretCommand::Show { workspace, storage }
            | WebhookSecretCommand::Rotate {
                workspace, storage, ..
            } => (workspace, storage),
        };
        let store = super::open_store(storage).await?;
        let scope = folio_store::Scope::new(
            store
                .workspace_by_name(workspace)
                .await?
                .with_context(|| format!("no workspace named {workspace:?}"))?
                .id,
        );
        let secret = match &command {
            WebhookSecretCommand::Show { .. } => signing::fetch(&store, scope).await?,
            WebhookSecretCommand::Rotate { overlap, .. } => {
                let secret = signing::rotate(&store, scope, overlap.as_secs()).await?;
                if let Some((_, until)) = &secret.previous {
                    let until = folio_api::time::format(until);
                    eprintln!("rotated; the previous secret signs too until {until}");
                }
                secret
            }
        };
        store.close().await;
        println!("{}", secret.secret);
        Ok(ExitCode::SUCCESS)
    })
}
