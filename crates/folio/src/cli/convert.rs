//! `folio convert --to FORMAT [-o OUT] INPUT`: e-invoices from GOBL, and GOBL from e-invoices.
//!
//! INPUT is a path or `-` for stdin. To `ubl`, `ubl-peppol`, `ubl-xrechnung`, `cii`,
//! `cii-xrechnung`, `cii-facturx` or `cii-zugferd` it reads a GOBL envelope or bare document
//! (YAML or JSON, built first); to `gobl` it reads UBL or CII (auto-detected) and prints the
//! built GOBL envelope (from a Factur-X / ZUGFeRD PDF too). `pdf` renders the invoice as a
//! PDF/A-3b file and `facturx-pdf` as a Factur-X EN 16931 hybrid (`--locale`, `--layout`,
//! `--logo`, `--template` shape the PDF). Exit 0 on success; 1 when the result fails folio's
//! own validation (the failed rules on stderr, nothing written); 2 on bad usage or unreadable
//! input.

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
    "pdf",
    "facturx-pdf",
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
    /// PDF: language of labels, numbers and dates (en, es, de, fr, it, pt, nl).
    #[arg(long, default_value = "en")]
    locale: String,
    /// PDF: page size, A4 or Letter.
    #[arg(long, default_value = "A4", value_parser = ["A4", "Letter", "a4", "letter"])]
    layout: String,
    /// PDF: a PNG, JPEG or SVG logo.
    #[arg(long)]
    logo: Option<PathBuf>,
    /// PDF: a Typst template replacing folio's (it reads `/view.json`).
    #[arg(long)]
    template: Option<PathBuf>,
}

/// Unreadable input and bad usage: exit 2.
pub(super) const USAGE: u8 = 2;
/// A result that does not pass validation: exit 1.
pub(super) const INVALID: u8 = 1;

pub(super) fn run(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let bytes = match read(&args.input) {
        Ok(b) => b,
        Err(e) => return Ok(fail(USAGE, &format!("cannot read {}: {e}", args.input))),
    };
    let result = match args.to.as_str() {
        "gobl" => to_gobl(&bytes).map(String::into_bytes),
        "pdf" | "facturx-pdf" => match pdf_options(args) {
            Ok(options) => super::convert_pdf::to_pdf(&bytes, &options, args.to == "facturx-pdf"),
            Err(message) => Err(fail(USAGE, &message)),
        },
        to => {
            let format = Format::from_name(to).expect("clap allows only known targets");
            to_einvoice(&bytes, format).map(String::into_bytes)
        }
    };
    let output = match result {
        Ok(output) => output,
        Err(code) => return Ok(code),
    };
    match &args.output {
        Some(path) => std::fs::write(path, output)
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?,
        None => std::io::stdout().write_all(&output)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The PDF options the flags give.
fn pdf_options(args: &ConvertArgs) -> Result<folio_pdf::Options, String> {
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let template = match &args.template {
        Some(path) => Some(
            String::from_utf8(read(path)?).map_err(|_| "the template is not UTF-8".to_string())?,
        ),
        None => None,
    };
    Ok(folio_pdf::Options {
        locale: Some(args.locale.clone()),
        layout: folio_pdf::Layout::from_name(&args.layout).unwrap_or_default(),
        logo: args.logo.as_ref().map(read).transpose()?,
        template,
        ..folio_pdf::Options::default()
    })
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
    let input = gobl_input(bytes)?;
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

/// A GOBL envelope or document, JSON or YAML.
pub(super) fn gobl_input(bytes: &[u8]) -> Result<serde_json::Value, ExitCode> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| fail(USAGE, "the input is not UTF-8 text"))?;
    let input = gobl::builder::parse_input(text)
        .map_err(|e| fail(USAGE, &format!("not a GOBL document (JSON or YAML): {e}")))?;
    if !input.is_object() {
        // YAML reads most text as a scalar: that is no document either
        return Err(fail(USAGE, "not a GOBL document (JSON or YAML object)"));
    }
    Ok(input)
}

/// Findings on stderr, one per line, most severe first.
pub(super) fn report(findings: &[Finding]) {
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| f.severity);
    for f in sorted {
        if f.severity != Severity::Information || std::env::var_os("FOLIO_VERBOSE").is_some() {
            eprintln!("{f}");
        }
    }
}

pub(super) fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}
