//! `folio gobl …`: build, verify and sign GOBL documents from the command line.
//!
//! - `folio gobl build FILE|-` reads a YAML or JSON document or envelope, normalises,
//!   calculates, validates and envelopes it, and prints the envelope as JSON on stdout.
//!   Invalid input exits with status 1 and the faults on stderr (one per line).
//! - `folio gobl verify FILE [--key KEY.jwk]` checks the digest (and signatures with keys).
//! - `folio gobl sign FILE --key KEY.jwk` builds if needed and appends a signature.
//! - `folio gobl keygen` prints a new ES256 private key as JWK.

use std::io::Read;
use std::process::ExitCode;

use anyhow::{Context, bail};
use gobl::builder::{self, BuildOptions};
use gobl::envelope::Envelope;
use gobl::sign::{PrivateKey, PublicKey};

/// GOBL subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum GoblCommand {
    /// Normalise, calculate, validate and envelope a document (YAML or JSON; `-` for stdin).
    Build {
        /// Input file, or `-` for stdin.
        file: String,
        /// Print compact JSON instead of indented JSON.
        #[arg(long)]
        compact: bool,
        /// Print the envelope even when the document has faults (still exits 1).
        #[arg(long)]
        allow_invalid: bool,
    },
    /// Verify an envelope's digest and, with `--key`, its signatures.
    Verify {
        /// Envelope file, or `-` for stdin.
        file: String,
        /// Public (or private) JWK files to verify signatures with; repeatable.
        #[arg(long = "key")]
        keys: Vec<String>,
    },
    /// Build (when needed) and sign a document or envelope with a private JWK.
    Sign {
        /// Input file, or `-` for stdin.
        file: String,
        /// Private key JWK file.
        #[arg(long)]
        key: String,
        /// Print compact JSON instead of indented JSON.
        #[arg(long)]
        compact: bool,
    },
    /// Generate a new ES256 private key and print it as JWK.
    Keygen,
}

fn read_input(file: &str) -> anyhow::Result<String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading stdin")?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {file}"))
    }
}

fn print_json(v: &serde_json::Value, compact: bool) -> anyhow::Result<()> {
    let s = if compact {
        serde_json::to_string(v)?
    } else {
        serde_json::to_string_pretty(v)?
    };
    println!("{s}");
    Ok(())
}

fn load_public_keys(files: &[String]) -> anyhow::Result<Vec<PublicKey>> {
    let mut keys = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).with_context(|| format!("reading key {f}"))?;
        let key = match PrivateKey::from_jwk_json(&text) {
            Ok(k) => k.public(),
            Err(_) => PublicKey::from_jwk_json(&text).with_context(|| format!("key {f}"))?,
        };
        keys.push(key);
    }
    Ok(keys)
}

/// Run a `folio gobl` subcommand. Faults exit with status 1; I/O and usage errors are
/// returned as errors.
pub fn run(cmd: GoblCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        GoblCommand::Build {
            file,
            compact,
            allow_invalid,
        } => {
            let input = builder::parse_input(&read_input(&file)?).map_err(anyhow::Error::msg)?;
            match builder::build_with(input, &BuildOptions::default()) {
                Ok(env) => {
                    print_json(&env, compact)?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(inv) => {
                    for f in &inv.faults.0 {
                        eprintln!("{f}");
                    }
                    if allow_invalid && !inv.envelope.is_null() {
                        print_json(&inv.envelope, compact)?;
                    }
                    Ok(ExitCode::from(1))
                }
            }
        }
        GoblCommand::Verify { file, keys } => {
            let text = read_input(&file)?;
            let env = match Envelope::from_json(&text) {
                Ok(e) => e,
                Err(errs) => {
                    for e in errs {
                        eprintln!("{e}");
                    }
                    return Ok(ExitCode::from(1));
                }
            };
            let keys = load_public_keys(&keys)?;
            let res = if keys.is_empty() {
                env.validate()
            } else {
                env.verify_signatures(&keys).and_then(|_| env.validate())
            };
            match res {
                Ok(()) => {
                    let sigs = if keys.is_empty() {
                        "not checked"
                    } else {
                        "verified"
                    };
                    println!(
                        "ok: digest {} matches; {} signature(s) {sigs}",
                        env.head.dig.val,
                        env.sigs.len()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(f) => {
                    eprintln!("{f}");
                    Ok(ExitCode::from(1))
                }
            }
        }
        GoblCommand::Sign { file, key, compact } => {
            let key_text =
                std::fs::read_to_string(&key).with_context(|| format!("reading key {key}"))?;
            let key = PrivateKey::from_jwk_json(&key_text).context("private key")?;
            let input = builder::parse_input(&read_input(&file)?).map_err(anyhow::Error::msg)?;
            // Already a complete, consistent envelope: sign as is. Otherwise build it first.
            let as_env = if builder::is_envelope(&input) {
                Envelope::from_value(&gobl::json::Value::from(&input))
                    .ok()
                    .filter(|e| e.verify_digest().is_ok())
            } else {
                None
            };
            let mut env = match as_env {
                Some(e) => e,
                None => match builder::build(input) {
                    Ok(v) => match Envelope::from_value(&gobl::json::Value::from(&v)) {
                        Ok(e) => e,
                        Err(errs) => bail!("built envelope is malformed: {errs:?}"),
                    },
                    Err(faults) => {
                        for f in &faults.0 {
                            eprintln!("{f}");
                        }
                        return Ok(ExitCode::from(1));
                    }
                },
            };
            let iat = chrono::Utc::now().timestamp();
            if let Err(f) = env.sign(&key, iat) {
                eprintln!("{f}");
                return Ok(ExitCode::from(1));
            }
            let out: serde_json::Value =
                serde_json::from_str(&env.to_json_string()).context("envelope JSON")?;
            print_json(&out, compact)?;
            Ok(ExitCode::SUCCESS)
        }
        GoblCommand::Keygen => {
            let key = PrivateKey::generate();
            println!("{}", serde_json::to_string_pretty(&key.to_jwk())?);
            Ok(ExitCode::SUCCESS)
        }
    }
}
