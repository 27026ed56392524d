//! `folio serve`: runs until SIGTERM or SIGINT, then drains and exits.

use std::process::ExitCode;

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

use crate::config::{Config, ServeArgs};

pub(super) fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&args)?;
    crate::logging::init(config.log_format, "info");
    super::runtime()?.block_on(async {
        // Handlers first: a signal that arrives while starting must still drain, not kill.
        let mut term = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let shutdown = CancellationToken::new();
        let running =
            crate::server::launch(config, crate::services::all(), shutdown.clone()).await?;
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM: draining in-flight requests"),
            _ = interrupt.recv() => tracing::info!("SIGINT: draining in-flight requests"),
        }
        shutdown.cancel();
        running.done.await??;
        Ok(ExitCode::SUCCESS)
    })
}
