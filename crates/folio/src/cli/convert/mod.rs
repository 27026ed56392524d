//! `folio convert --to FORMAT [-o OUT] INPUT`: e-invoices from GOBL, and GOBL from e-invoices.
//!
//! INPUT is a path or `-` for stdin. To `ubl`, `ubl-peppol`, `ubl-xrechnung`, `cii`,
//! `cii-xrechnung`, `cii-facturx` or `cii-zugferd`, and to the national `fatturapa`,
//! `verifactu`, `facturae`, `ticketbai` or `ksef` (Facturae signed, and TicketBAI, with
//! `--identity` and `--password-file`), it reads a GOBL envelope or bare document (YAML or JSON,
//! built first); to `gobl` it reads UBL, CII, FatturaPA (plain or `.xml.p7m`) or KSeF FA(3)
//! (detected) and prints the built GOBL envelope (from a Factur-X / ZUGFeRD PDF too). `pdf`
//! renders the invoice as a PDF/A-3b file and `facturx-pdf` as a Factur-X EN 16931 hybrid
//! (`--locale`, `--layout`, `--logo`, `--template` shape the PDF). Exit 0 on success; 1 when
//! the result fails folio's own validation or the format's requirements (the failed rules on
//! stderr, nothing written); 2 on bad usage or unreadable input.

mod einvoice;
mod input;
mod national;
mod outcome;
mod pdf;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use folio_einvoice::Format;

use outcome::{USAGE, fail};

/// Every target `--to` takes.
const TARGETS: &[&str] = &[
    "ubl",
    "ubl-peppol",
    "ubl-xrechnung",
    "cii",
    "cii-xrechnung",
    "cii-facturx",
    "cii-zugferd",
    "fatturapa",
    "verifactu",
    "facturae",
    "ksef",
    "ticketbai",
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
    /// VERI*FACTU: a file holding the issuer's previous record, to chain the new one to (the
    /// CLI keeps no chain: without it the record is the first of its chain).
    #[arg(long)]
    previous: Option<PathBuf>,
    /// VERI*FACTU: write the record that cancels the invoice (`RegistroAnulacion`) instead of
    /// its issue record.
    #[arg(long)]
    cancel: bool,
    /// Facturae, TicketBAI: the PKCS#12 identity to sign with.
    #[arg(long)]
    identity: Option<PathBuf>,
    /// Facturae, TicketBAI: a file holding the identity's password.
    #[arg(long)]
    password_file: Option<PathBuf>,
    /// TicketBAI: the software's licence from the province's treasury.
    #[arg(long)]
    license: Option<String>,
    /// TicketBAI: the software developer's NIF.
    #[arg(long)]
    developer_nif: Option<String>,
}

pub(super) fn run(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let bytes = match input::read(&args.input) {
        Ok(b) => b,
        Err(e) => return Ok(fail(USAGE, &format!("cannot read {}: {e}", args.input))),
    };
    let result = match args.to.as_str() {
        "gobl" => national::to_gobl(&bytes)
            .unwrap_or_else(|| einvoice::to_gobl(&bytes))
            .map(String::into_bytes),
        "pdf" | "facturx-pdf" => match pdf_options(args) {
            Ok(options) => pdf::to_pdf(&bytes, &options, args.to == "facturx-pdf"),
            Err(message) => Err(fail(USAGE, &message)),
        },
        to if national::TARGETS.contains(&to) => {
            let opts = national::Options {
                previous: args.previous.as_deref(),
                cancel: args.cancel,
                identity: args.identity.as_deref(),
                password_file: args.password_file.as_deref(),
                license: args.license.as_deref(),
                developer_nif: args.developer_nif.as_deref(),
            };
            national::to_national(&bytes, to, &opts).map(String::into_bytes)
        }
        to => {
            let format = Format::from_name(to).expect("clap allows only known targets");
            einvoice::to_einvoice(&bytes, format).map(String::into_bytes)
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
