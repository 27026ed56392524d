//! `folio serve`: runs until SIGTERM or SIGINT, then drains and exits.

use std::process::ExitCode;

use tokio_util::sync::CancellationToken;

use crate::config::{Config, ServeArgs};

pub(super) fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&args)?;
    crate::logging::init(config.log_format, "info");
    super::runtime()?.block_on(async {
        let shutdown = CancellationToken::new();
        let running =
            crate::server::launch(config, crate::services::all(), shutdown.clone()).await?;
        wait_for_signal().await;
        tracing::info!("shutdown requested: draining in-flight requests");
        shutdown.cancel();
        running.done.await??;
        Ok(ExitCode::SUCCESS)
    })
}

async fn wait_for_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("installing the SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
