//! `folio`: see `folio --help`.

use std::process::ExitCode;

use clap::Parser;

/// mimalloc, not the system allocator: a request allocates and frees many small buffers, and
/// glibc's malloc and free were a fifth of the server's time under load (`bench/run.sh`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
