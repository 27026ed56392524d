//! `folio identities import | list`: the PKCS#12 identities a workspace signs documents with.

use std::process::ExitCode;

use anyhow::Context;
use folio_silo::{IdentityInfo, NewIdentity, identities};
use folio_store::{Scope, Store};

use super::IdentitiesCommand;

pub(super) fn run(command: IdentitiesCommand) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async {
        match command {
            IdentitiesCommand::Import {
                file,
                password_file,
                name,
                workspace,
                storage,
            } => {
                let pkcs12 =
                    std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
                let password = read_password(&password_file)?;
                let store = super::open_store(&storage).await?;
                let scope = scope(&store, &workspace).await?;
                let new = NewIdentity {
                    name,
                    pkcs12,
                    password,
                };
                let imported = identities::import(&store, scope, new).await;
                store.close().await;
                match imported {
                    Ok(info) => println!("{}", line(&info)),
                    Err(folio_silo::SiloError::Invalid(fields)) => {
                        let problems: Vec<String> = fields
                            .iter()
                            .map(|f| format!("{}: {}", option(&f.path), f.message))
                            .collect();
                        anyhow::bail!("refused: {}", problems.join("; "));
                    }
                    Err(err) => return Err(err.into()),
                }
            }
            IdentitiesCommand::List { workspace, storage } => {
                let store = super::open_store(&storage).await?;
                let scope = scope(&store, &workspace).await?;
                let list = identities::list(&store, scope).await;
                store.close().await;
                for info in list? {
                    println!("{}", line(&info));
                }
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// The password file's first line (a trailing newline is not part of the password).
fn read_password(path: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading password file {}", path.display()))?;
    let password = text.strip_suffix('\n').unwrap_or(&text);
    Ok(password.strip_suffix('\r').unwrap_or(password).to_string())
}

/// The option a refused field came from.
fn option(path: &str) -> &str {
    match path {
        "data" => "--file",
        "password" => "--password-file",
        "name" => "--name",
        other => other,
    }
}

async fn scope(store: &Store, workspace: &str) -> anyhow::Result<Scope> {
    let ws = store
        .workspace_by_name(workspace)
        .await?
        .with_context(|| format!("no workspace named {workspace:?}"))?;
    Ok(Scope::new(ws.id))
}

/// `id  not_after  name  subject`, tab-separated.
fn line(info: &IdentityInfo) -> String {
    format!(
        "{}\t{}\t{}\t{}",
        info.id,
        folio_api::time::format(&info.not_after),
        info.name,
        info.subject
    )
}
