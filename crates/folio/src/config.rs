//! Configuration: command-line options, `FOLIO_*` environment variables and an optional TOML
//! file, in that order of precedence, over built-in defaults.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::Context;
use folio_api::auth::AuthSettings;
use folio_api::limits::Limits;
use serde::Deserialize;

/// Options every command that opens the database takes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StorageArgs {
    /// Data folder: SQLite database, files, the first token.
    #[arg(long, env = "FOLIO_DATA", value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// SQLite file path or `postgres://` URL (default: `<data>/folio.db`).
    #[arg(long, env = "FOLIO_DATABASE", value_name = "PATH_OR_URL")]
    pub database: Option<String>,
    /// TOML configuration file.
    #[arg(long, env = "FOLIO_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Key-encryption key file, which seals the secrets in the database (default:
    /// `<data>/folio.key`, created on first start). Or give the key itself as base64 in
    /// `FOLIO_KEY`.
    #[arg(long, env = "FOLIO_KEY_FILE", value_name = "FILE")]
    pub key_file: Option<PathBuf>,
}

/// Environment variable holding the key-encryption key itself, as base64 (instead of a file).
pub const KEY_ENV: &str = "FOLIO_KEY";

/// Name of the key file made in the data folder when no key is configured.
pub const DATA_KEY_FILE: &str = "folio.key";

/// Where the key-encryption key comes from.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum KeySource {
    /// `<data>/folio.key`, created (mode 0600) on first start: for a single node.
    #[default]
    DataFolder,
    /// A key file given by configuration; it must exist.
    File(PathBuf),
    /// The key itself, base64 (`FOLIO_KEY`).
    Base64(String),
}

impl std::fmt::Debug for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::DataFolder => f.write_str("DataFolder"),
            KeySource::File(path) => f.debug_tuple("File").field(path).finish(),
            // never the key itself
            KeySource::Base64(_) => f.write_str("Base64(..)"),
        }
    }
}

impl KeySource {
    /// The key-encryption key; with [`KeySource::DataFolder`] the key file is created when
    /// there is none.
    pub fn load(&self, data: &Path) -> anyhow::Result<folio_store::Kek> {
        let key = match self {
            KeySource::DataFolder => {
                let path = data.join(DATA_KEY_FILE);
                let (key, created) = folio_store::Kek::read_or_create_file(&path)?;
                if created {
                    tracing::info!(path = %path.display(), key = key.id(), "created the key-encryption key; keep a copy apart from the database's backups");
                }
                key
            }
            KeySource::File(path) => folio_store::Kek::read_file(path)?,
            KeySource::Base64(text) => folio_store::Kek::from_base64(text)
                .map_err(|e| anyhow::anyhow!("{KEY_ENV}: {e}"))?,
        };
        Ok(key)
    }

    /// A key file from the command line or `FOLIO_KEY_FILE`, else `FOLIO_KEY`, else the
    /// configuration file's `key_file`, else the data folder's.
    fn resolve(arg: Option<PathBuf>, file: Option<PathBuf>) -> anyhow::Result<KeySource> {
        let inline = std::env::var(KEY_ENV).ok().filter(|v| !v.trim().is_empty());
        Ok(match (arg, inline, file) {
            (Some(_), Some(_), _) => {
                anyhow::bail!("give the key-encryption key once: FOLIO_KEY or a key file, not both")
            }
            (Some(path), None, _) => KeySource::File(path),
            (None, Some(text), _) => KeySource::Base64(text),
            (None, None, Some(path)) => KeySource::File(path),
            (None, None, None) => KeySource::DataFolder,
        })
    }
}

/// Options of `folio serve`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServeArgs {
    /// Storage options.
    #[command(flatten)]
    pub storage: StorageArgs,
    /// Address of the public API listener.
    #[arg(long, env = "FOLIO_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Address of the operations listener (`/healthz`, `/readyz`, `/metrics`).
    #[arg(long, env = "FOLIO_OPS_LISTEN", value_name = "ADDR")]
    pub ops_listen: Option<SocketAddr>,
    /// Where attached files go: a folder (default `<data>/files`), or `s3://bucket/prefix`.
    #[arg(long, env = "FOLIO_BLOBS", value_name = "DIR_OR_URL")]
    pub blobs: Option<String>,
    /// Log format: `text` or `json`.
    #[arg(long, env = "FOLIO_LOG_FORMAT", value_name = "FORMAT")]
    pub log_format: Option<LogFormat>,
}

/// How logs are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// The TOML file: every option of `serve` plus the limits.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    listen: Option<SocketAddr>,
    ops_listen: Option<SocketAddr>,
    data: Option<PathBuf>,
    database: Option<String>,
    blobs: Option<String>,
    log_format: Option<LogFormat>,
    limits: Option<Limits>,
    auth: Option<AuthSettings>,
    transform: Option<toml::Table>,
    outbound: Option<OutboundFile>,
    key_file: Option<PathBuf>,
}

/// `[outbound]`: networks the actions may reach although refused by default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutboundFile {
    #[serde(default)]
    allow: Vec<String>,
}

/// Environment variable listing allowed networks, comma-separated; replaces `[outbound] allow`.
pub const OUTBOUND_ALLOW_ENV: &str = "FOLIO_OUTBOUND_ALLOW";

/// The resolved configuration of a server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Public API listener.
    pub listen: SocketAddr,
    /// Operations listener.
    pub ops_listen: SocketAddr,
    /// Data folder.
    pub data: PathBuf,
    /// SQLite path or PostgreSQL URL.
    pub database: String,
    /// Files: a folder or an `s3://` URL.
    pub blobs: String,
    /// Log format.
    pub log_format: LogFormat,
    /// API limits.
    pub limits: Limits,
    /// Authentication settings.
    pub auth: AuthSettings,
    /// The `[transform]` table of the file, for the transform service's own settings.
    pub transform: toml::Table,
    /// Where actions may connect (the default refuses internal networks).
    pub outbound: folio_transform::outbound::Policy,
    /// Where the key-encryption key comes from.
    pub key: KeySource,
}

/// The storage a command opens: data folder, database and key.
#[derive(Debug, Clone)]
pub struct Storage {
    /// Data folder.
    pub data: PathBuf,
    /// SQLite path or PostgreSQL URL.
    pub database: String,
    /// Where the key-encryption key comes from.
    pub key: KeySource,
}

impl Config {
    /// Defaults for a data folder (tests use this with ephemeral ports).
    pub fn for_data(data: impl Into<PathBuf>) -> Self {
        let data = data.into();
        Config {
            listen: ([127, 0, 0, 1], 8080).into(),
            ops_listen: ([127, 0, 0, 1], 9090).into(),
            database: default_database(&data),
            blobs: data.join("files").display().to_string(),
            data,
            log_format: LogFormat::Text,
            limits: Limits::default(),
            auth: AuthSettings::default(),
            transform: toml::Table::new(),
            outbound: Default::default(),
            key: KeySource::DataFolder,
        }
    }

    /// The storage part: data folder, database and key.
    pub fn storage(&self) -> Storage {
        Storage {
            data: self.data.clone(),
            database: self.database.clone(),
            key: self.key.clone(),
        }
    }

    /// Resolves `serve`'s options: command line and environment over the file over defaults.
    pub fn resolve(args: &ServeArgs) -> anyhow::Result<Self> {
        let file = read_file(args.storage.config.as_deref())?;
        let data = args
            .storage
            .data
            .clone()
            .or(file.data)
            .unwrap_or_else(|| PathBuf::from("./folio-data"));
        let mut config = Config::for_data(&data);
        if let Some(database) = args.storage.database.clone().or(file.database) {
            config.database = database;
        }
        if let Some(blobs) = args.blobs.clone().or(file.blobs) {
            config.blobs = blobs;
        }
        config.listen = args.listen.or(file.listen).unwrap_or(config.listen);
        config.ops_listen = args
            .ops_listen
            .or(file.ops_listen)
            .unwrap_or(config.ops_listen);
        config.log_format = args.log_format.or(file.log_format).unwrap_or_default();
        config.limits = file.limits.unwrap_or_default();
        config.auth = file.auth.unwrap_or_default();
        config.transform = file.transform.unwrap_or_default();
        config.outbound = outbound_policy(file.outbound.unwrap_or_default())?;
        config.key = KeySource::resolve(args.storage.key_file.clone(), file.key_file)?;
        Ok(config)
    }
}

/// Resolves the data folder, database and key of a command that only needs storage.
pub fn resolve_storage(args: &StorageArgs) -> anyhow::Result<Storage> {
    let file = read_file(args.config.as_deref())?;
    let data = args
        .data
        .clone()
        .or(file.data)
        .unwrap_or_else(|| PathBuf::from("./folio-data"));
    let database = args
        .database
        .clone()
        .or(file.database)
        .unwrap_or_else(|| default_database(&data));
    let key = KeySource::resolve(args.key_file.clone(), file.key_file)?;
    Ok(Storage {
        data,
        database,
        key,
    })
}

/// The environment's list wins over the file's.
fn outbound_policy(file: OutboundFile) -> anyhow::Result<folio_transform::outbound::Policy> {
    let allow = match std::env::var(OUTBOUND_ALLOW_ENV) {
        Ok(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
        Err(_) => file.allow,
    };
    folio_transform::outbound::Policy::allowing(&allow).map_err(anyhow::Error::msg)
}

fn default_database(data: &Path) -> String {
    data.join("folio.db").display().to_string()
}

fn read_file(path: Option<&Path>) -> anyhow::Result<FileConfig> {
    let Some(path) = path else {
        return Ok(FileConfig::default());
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading configuration file {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("parsing configuration file {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_wins_over_file_over_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("folio.toml");
        std::fs::write(
            &file,
            "listen = \"127.0.0.1:7000\"\nops_listen = \"127.0.0.1:7001\"\n[limits]\nbody_bytes = 1024\n",
        )
        .unwrap();
        let args = ServeArgs {
            storage: StorageArgs {
                data: Some(dir.path().join("d")),
                database: None,
                config: Some(file),
                ..Default::default()
            },
            listen: Some("127.0.0.1:7100".parse().unwrap()),
            ..Default::default()
        };
        let config = Config::resolve(&args).unwrap();
        assert_eq!(config.listen.port(), 7100);
        assert_eq!(config.ops_listen.port(), 7001);
        assert_eq!(config.limits.body_bytes, 1024);
        assert_eq!(config.limits.rate_burst, Limits::default().rate_burst);
        assert!(config.database.ends_with("folio.db"));
    }

    #[test]
    fn outbound_allow_list_is_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("folio.toml");
        let args = |file: &PathBuf| ServeArgs {
            storage: StorageArgs {
                config: Some(file.clone()),
                ..Default::default()
            },
            ..Default::default()
        };
        std::fs::write(&file, "[outbound]\nallow = [\"127.0.0.0/8\", \"::1\"]\n").unwrap();
        let config = Config::resolve(&args(&file)).unwrap();
        assert_eq!(config.outbound.allowed().len(), 2);
        std::fs::write(&file, "[outbound]\nallow = [\"intranet\"]\n").unwrap();
        let error = Config::resolve(&args(&file)).unwrap_err().to_string();
        assert!(error.contains("intranet"), "{error}");
    }

    #[test]
    fn the_key_comes_from_the_command_line_then_the_file_then_the_data_folder() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("folio.toml");
        std::fs::write(&file, "key_file = \"/etc/folio/folio.key\"\n").unwrap();
        let mut args = StorageArgs {
            config: Some(file),
            ..Default::default()
        };
        let from_file = resolve_storage(&args).unwrap().key;
        assert_eq!(from_file, KeySource::File("/etc/folio/folio.key".into()));
        args.key_file = Some("/run/secrets/key".into());
        let from_args = resolve_storage(&args).unwrap().key;
        assert_eq!(from_args, KeySource::File("/run/secrets/key".into()));
        let none = resolve_storage(&StorageArgs::default()).unwrap().key;
        assert_eq!(none, KeySource::DataFolder);

        // the data folder's key is made once, private
        let data = dir.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        let made = KeySource::DataFolder.load(&data).unwrap();
        assert_eq!(KeySource::DataFolder.load(&data).unwrap().id(), made.id());
        let inline = KeySource::Base64(made.to_base64());
        assert_eq!(inline.load(&data).unwrap().id(), made.id());
        assert!(
            !format!("{inline:?}").contains(&made.to_base64()),
            "Debug hides the key"
        );
        assert!(
            KeySource::File(dir.path().join("absent"))
                .load(&data)
                .is_err()
        );
    }

    #[test]
    fn unknown_keys_in_the_file_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("folio.toml");
        std::fs::write(&file, "lisen = \"127.0.0.1:7000\"\n").unwrap();
        let args = StorageArgs {
            config: Some(file),
            ..Default::default()
        };
        assert!(resolve_storage(&args).is_err());
    }
}
