//! The `folio` command line. Command and option names are a contract scripts rely on.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{ServeArgs, StorageArgs};

mod console_link;
mod convert;
pub mod gobl;
mod identities;
mod keys;
mod openapi;
mod serve;
mod tokens;
mod webhooks;
mod workspaces;

/// folio: a self-hosted HTTP API for electronic invoices and other business documents.
#[derive(Debug, Parser)]
#[command(name = "folio", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the server.
    Serve(ServeArgs),
    /// Manage workspaces.
    #[command(subcommand)]
    Workspace(WorkspaceCommand),
    /// Manage API tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Show or rotate a workspace's webhook signing secret.
    #[command(subcommand)]
    WebhookSecret(WebhookSecretCommand),
    /// Re-seal the database's secrets under a new key-encryption key.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Import and list a workspace's signing identities (PKCS#12).
    #[command(subcommand)]
    Identities(IdentitiesCommand),
    /// Check or rewrite the committed OpenAPI snapshots under `api/`.
    Openapi(OpenapiArgs),
    /// Build, verify and sign GOBL documents.
    #[command(subcommand)]
    Gobl(gobl::GoblCommand),
    /// Convert GOBL to an e-invoice (UBL, CII and their profiles) or an e-invoice to GOBL.
    Convert(convert::ConvertArgs),
    /// Print a one-time link that signs a browser into the web console (`/console/`).
    ConsoleLink(ConsoleLinkArgs),
}

/// `folio console-link`
#[derive(Debug, clap::Args)]
pub struct ConsoleLinkArgs {
    /// Workspace name.
    #[arg(long, default_value = crate::bootstrap::DEFAULT_WORKSPACE)]
    pub workspace: String,
    /// The server's address as the browser reaches it.
    #[arg(
        long,
        env = "FOLIO_CONSOLE_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub url: String,
    /// How long the link may wait for its one use.
    #[arg(long, value_name = "DURATION", default_value = "15m")]
    pub expires_in: humantime::Duration,
    /// Storage options.
    #[command(flatten)]
    pub storage: StorageArgs,
}

/// `folio workspace ...`
#[derive(Debug, Subcommand)]
pub enum WorkspaceCommand {
    /// Create a workspace.
    Create {
        /// Workspace name.
        name: String,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// `folio token ...`
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a token for a workspace and print it (only it) on stdout.
    Create {
        /// Workspace name.
        #[arg(long)]
        workspace: String,
        /// Lifetime, e.g. `30d`, `12h`; no expiry when absent.
        #[arg(long, value_name = "DURATION")]
        expires_in: Option<humantime::Duration>,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// List tokens: id, workspace, created, expiry, revoked.
    List {
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Revoke a token by id.
    Revoke {
        /// Token id (from `folio token list`).
        id: uuid::Uuid,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// `folio webhook-secret ...`
#[derive(Debug, Subcommand)]
pub enum WebhookSecretCommand {
    /// Print the workspace's secret (`whsec_...`), creating it on first use.
    Show {
        /// Workspace name.
        #[arg(long)]
        workspace: String,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Replace the secret and print the new one; the old one keeps signing for `--overlap`.
    Rotate {
        /// Workspace name.
        #[arg(long)]
        workspace: String,
        /// How long the previous secret still signs deliveries.
        #[arg(long, value_name = "DURATION", default_value = "24h")]
        overlap: humantime::Duration,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// `folio keys ...`
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Re-seal every secret (token secret, webhook secrets, workspace keys, identities) under
    /// the key of `--new-key-file`, in one transaction. Stop every node first; then start them
    /// all with the new key.
    Rotate {
        /// The new key: read when the file exists, else made and written there (mode 0600).
        #[arg(long, value_name = "FILE")]
        new_key_file: std::path::PathBuf,
        /// Storage options (with the key in use now).
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// `folio identities ...`
#[derive(Debug, Subcommand)]
pub enum IdentitiesCommand {
    /// Import a PKCS#12 file (checked: password, validity, key); prints
    /// `id, not after, name, subject`, tab-separated.
    Import {
        /// The PKCS#12 (`.p12`, `.pfx`) file.
        #[arg(long, value_name = "FILE")]
        file: std::path::PathBuf,
        /// A file whose first line is the password.
        #[arg(long, value_name = "FILE")]
        password_file: std::path::PathBuf,
        /// A name for it (default: the certificate's subject).
        #[arg(long)]
        name: Option<String>,
        /// Workspace name.
        #[arg(long, default_value = crate::bootstrap::DEFAULT_WORKSPACE)]
        workspace: String,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// List the workspace's identities, newest first: id, not after, name, subject.
    List {
        /// Workspace name.
        #[arg(long, default_value = crate::bootstrap::DEFAULT_WORKSPACE)]
        workspace: String,
        /// Storage options.
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// `folio openapi --check | --write`
#[derive(Debug, clap::Args)]
pub struct OpenapiArgs {
    /// Fail when a committed snapshot is stale or the change is breaking.
    #[arg(long, conflicts_with = "write", required_unless_present = "write")]
    pub check: bool,
    /// Rewrite the snapshots from the code.
    #[arg(long)]
    pub write: bool,
    /// Folder of the snapshots.
    #[arg(long, default_value = "api")]
    pub dir: std::path::PathBuf,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Workspace(WorkspaceCommand::Create { name, storage }) => {
            workspaces::create(&storage, &name)
        }
        Command::Token(command) => tokens::run(command),
        Command::WebhookSecret(command) => webhooks::run(command),
        Command::Keys(command) => keys::run(command),
        Command::Identities(command) => identities::run(command),
        Command::Openapi(args) => openapi::run(&args),
        Command::Gobl(command) => gobl::run(command),
        Command::Convert(args) => convert::run(&args),
        Command::ConsoleLink(args) => console_link::run(args),
    }
}

/// A runtime for the commands that touch the database.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// Opens the store named by storage options, with its key-encryption key.
async fn open_store(storage: &StorageArgs) -> anyhow::Result<folio_store::Store> {
    crate::bootstrap::open_store(&crate::config::resolve_storage(storage)?).await
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
