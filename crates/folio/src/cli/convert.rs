//! `folio convert --to FORMAT [-o OUT] INPUT`: e-invoices from GOBL, and GOBL from e-invoices.
//!
//! INPUT is a path or `-` for stdin. To `ubl`, `ubl-peppol`, `ubl-xrechnung`, `cii`,
//! `cii-xrechnung`, `cii-facturx` or `cii-zugferd` it reads a GOBL envelope or bare document
//! (YAML or JSON, built first); to `gobl` it reads UBL or CII (auto-detected) and prints the
//! built GOBL envelope. Exit 0 on success; 1 when the result fails folio's own validation
//! (the failed rules on stderr, nothing written); 2 on bad usage or unreadable input.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use folio_einvoice::{Error, Finding, Format, Severity};

/// Every target `--to` takes.
const TARGETS: &[&str] = &[
    "ubl",
    "ubl-peppol",
    "ubl-xrechnung",
    "cii",
    "cii-xrechnung",
    "cii-facturx",
    "cii-zugferd",
    "gobl",
];

/// `folio convert` arguments.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The format to write.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(TARGETS))]
    to: String,
    /// Write the result to this file instead of stdout.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Input file, or `-` for stdin.
    input: String,
}

/// Unreadable input and bad usage: exit 2.
const USAGE: u8 = 2;
/// A result that does not pass validation: exit 1.
const INVALID: u8 = 1;

pub(super) fn run(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let bytes = match read(&args.input) {
        Ok(b) => b,
        Err(e) => return Ok(fail(USAGE, &format!("cannot read {}: {e}", args.input))),
    };
    let result = if args.to == "gobl" {
        to_gobl(&bytes)
    } else {
        let format = Format::from_name(&args.to).expect("clap allows only known targets");
        to_einvoice(&bytes, format)
    };
    let text = match result {
        Ok(text) => text,
        Err(code) => return Ok(code),
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn read(input: &str) -> std::io::Result<Vec<u8>> {
    if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(input)
    }
}

/// UBL or CII → the built GOBL envelope, with the reader's notes on stderr.
fn to_gobl(bytes: &[u8]) -> Result<String, ExitCode> {
    let imported = folio_einvoice::import(bytes).map_err(|e| fail(USAGE, &e.to_string()))?;
    report(&imported.notes);
    let mut text = serde_json::to_string_pretty(&imported.envelope).expect("JSON");
    text.push('\n');
    Ok(text)
}

/// GOBL → XML in `format`, refused (exit 1) when it fails the format's rules.
fn to_einvoice(bytes: &[u8], format: Format) -> Result<String, ExitCode> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| fail(USAGE, "the input is not UTF-8 text"))?;
    let input = gobl::builder::parse_input(text)
        .map_err(|e| fail(USAGE, &format!("not a GOBL document (JSON or YAML): {e}")))?;
    if !input.is_object() {
        // YAML reads most text as a scalar: that is no document either
        return Err(fail(USAGE, "not a GOBL document (JSON or YAML object)"));
    }
    let generated = match folio_einvoice::generate(&input, format) {
        Ok(g) => g,
        Err(e @ Error::NotInvoice(_)) => return Err(fail(USAGE, &e.to_string())),
        Err(Error::Gobl(findings) | Error::Unwritable { findings, .. }) => {
            report(&findings);
            return Err(fail(INVALID, "the document does not pass validation"));
        }
        Err(e) => return Err(fail(USAGE, &e.to_string())),
    };
    report(&generated.findings);
    if !generated.is_valid() {
        return Err(fail(
            INVALID,
            &format!(
                "the {} document fails the rules above",
                format.context().name
            ),
        ));
    }
    Ok(generated.xml)
}

/// Findings on stderr, one per line, most severe first.
fn report(findings: &[Finding]) {
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| f.severity);
    for f in sorted {
        if f.severity != Severity::Information || std::env::var_os("FOLIO_VERBOSE").is_some() {
            eprintln!("{f}");
        }
    }
}

fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}
