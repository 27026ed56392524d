//! `folio token create | list | revoke`.

use std::process::ExitCode;

use anyhow::Context;
use folio_api::auth::Authenticator;

use super::TokenCommand;

pub(super) fn run(command: TokenCommand) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async {
        match command {
            TokenCommand::Create {
                workspace,
                expires_in,
                storage,
            } => {
                let store = super::open_store(&storage).await?;
                let workspace = store
                    .workspace_by_name(&workspace)
                    .await?
                    .with_context(|| format!("no workspace named {workspace:?}"))?;
                let expires_at = match expires_in {
                    Some(d) => Some(
                        chrono::Utc::now()
                            + chrono::Duration::from_std(*d).context("--expires-in is too long")?,
                    ),
                    None => None,
                };
                let auth = Authenticator::new(store.clone()).await?;
                let (_, token) = auth.issue(workspace.id, expires_at).await?;
                println!("{token}");
                store.close().await;
            }
            TokenCommand::List { storage } => {
                let store = super::open_store(&storage).await?;
                for (token, workspace) in store.list_tokens().await? {
                    let fmt = |t: Option<chrono::DateTime<chrono::Utc>>| {
                        t.map(|t| folio_api::time::format(&t))
                            .unwrap_or_else(|| "-".into())
                    };
                    println!(
                        "{} {} {} {} {}",
                        token.id,
                        workspace,
                        folio_api::time::format(&token.created_at),
                        fmt(token.expires_at),
                        fmt(token.revoked_at)
                    );
                }
                store.close().await;
            }
            TokenCommand::Revoke { id, storage } => {
                let store = super::open_store(&storage).await?;
                let known = store.revoke_token(id).await?;
                store.close().await;
                if !known {
                    eprintln!("no token {id}");
                    return Ok(ExitCode::FAILURE);
                }
                eprintln!("revoked {id}");
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}
