//! `folio`: see `folio --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = folio::cli::Cli::parse();
    match folio::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
