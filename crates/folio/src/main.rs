//! `folio`: see `folio --help`.

use std::process::ExitCode;

use clap::Parser;

/// mimalloc rather than the C library's allocator: a request allocates a few dozen small
/// blocks, and mimalloc's thread-local free lists take a fraction of glibc's instructions for
/// each (see the ping and PUT benchmarks; the bare baseline server uses it too).
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
