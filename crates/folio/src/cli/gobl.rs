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
        } => build(&file, compact, allow_invalid),
        GoblCommand::Verify { file, keys } => verify(&file, &keys),
        GoblCommand::Sign { file, key, compact } => sign(&file, &key, compact),
        GoblCommand::Keygen => {
            let key = PrivateKey::generate();
            println!("{}", serde_json::to_string_pretty(&key.to_jwk())?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints each problem on stderr; the exit status of a document with faults.
fn refuse<T: std::fmt::Display>(problems: impl IntoIterator<Item = T>) -> ExitCode {
    for p in problems {
        eprintln!("{p}");
    }
    ExitCode::from(1)
}

/// `folio gobl build`: the envelope on stdout, or the faults on stderr.
fn build(file: &str, compact: bool, allow_invalid: bool) -> anyhow::Result<ExitCode> {
    let input = builder::parse_input(&read_input(file)?).map_err(anyhow::Error::msg)?;
    match builder::build_with(input, &BuildOptions::default()) {
        Ok(env) => {
            print_json(&env, compact)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(inv) => {
            let code = refuse(&inv.faults.0);
            if allow_invalid && !inv.envelope.is_null() {
                print_json(&inv.envelope, compact)?;
            }
            Ok(code)
        }
    }
}

/// `folio gobl verify`: the digest, and the signatures when keys are given.
fn verify(file: &str, keys: &[String]) -> anyhow::Result<ExitCode> {
    let text = read_input(file)?;
    let env = match Envelope::from_json(&text) {
        Ok(e) => e,
        Err(errs) => return Ok(refuse(errs)),
    };
    let keys = load_public_keys(keys)?;
    let res = if keys.is_empty() {
        env.validate()
    } else {
        env.verify_signatures(&keys).and_then(|_| env.validate())
    };
    if let Err(f) = res {
        return Ok(refuse([f]));
    }
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

/// `folio gobl sign`: a complete, consistent envelope is signed as it is; anything else is
/// built first.
fn sign(file: &str, key: &str, compact: bool) -> anyhow::Result<ExitCode> {
    let key_text = std::fs::read_to_string(key).with_context(|| format!("reading key {key}"))?;
    let key = PrivateKey::from_jwk_json(&key_text).context("private key")?;
    let input = builder::parse_input(&read_input(file)?).map_err(anyhow::Error::msg)?;
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
            Err(faults) => return Ok(refuse(faults.0)),
        },
    };
    let iat = chrono::Utc::now().timestamp();
    if let Err(f) = env.sign(&key, iat) {
        return Ok(refuse([f]));
    }
    let out: serde_json::Value =
        serde_json::from_str(&env.to_json_string()).context("envelope JSON")?;
    print_json(&out, compact)?;
    Ok(ExitCode::SUCCESS)
}
