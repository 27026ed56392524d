//! `launch`: the whole server (public and operations listeners, services, workers) as a library
//! call, used by `folio serve` and by the tests, which bind ephemeral ports.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use folio_api::{Ctx, Handles, Registry, ServiceVersion};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::bootstrap;
use crate::config::Config;

/// How long in-flight requests get to finish after a shutdown signal.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// A running server.
pub struct Running {
    /// Where the public API listens.
    pub public: SocketAddr,
    /// Where the operations endpoints listen.
    pub ops: SocketAddr,
    /// Resolves when the server has drained and stopped.
    pub done: JoinHandle<anyhow::Result<()>>,
}

/// Opens storage, runs first-start set-up, binds both listeners and serves `services` until
/// `shutdown` is cancelled; then stops accepting, drains in-flight requests and stops workers.
pub async fn launch(
    config: Config,
    services: Vec<ServiceVersion>,
    shutdown: CancellationToken,
) -> anyhow::Result<Running> {
    let store = bootstrap::open_store(&config.storage()).await?;
    let ctx = Ctx::with_auth(store.clone(), config.limits.clone(), &config.auth).await?;
    if let Some(path) = bootstrap::first_start(&store, ctx.auth(), &config.data).await? {
        tracing::info!(path = %path.display(), "first start: created workspace 'default'; its token is in this file");
    }
    let blobs = open_blobs(&config.blobs)?;
    let registry = Registry::new(services)?;

    // Service state: each service's domain handle goes into the handles every request reaches;
    // workers share the shutdown token and finish or release their leases when it is cancelled.
    let silo = folio_silo::Silo::new(store.clone(), blobs, config.limits.clone());
    let mut transform_config = folio_transform::TransformConfig::from_table(&config.transform)
        .and_then(|c| c.with_env())
        .map_err(anyhow::Error::msg)?;
    transform_config.outbound = config.outbound.clone();
    let transform = folio_transform::Transform::new(store.clone(), silo.clone(), transform_config);
    let sequence = folio_sequence::Sequence::new(store.clone());
    let console = folio_console::Console::new(
        ctx.clone(),
        silo.clone(),
        transform.clone(),
        sequence.clone(),
    );
    let handles = Handles::new()
        .with(sequence)
        .with(folio_access::Access::new(store.clone()))
        .with(transform.clone())
        .with(silo.clone());
    // The web console sits beside the versioned services on the same listener, under
    // /console/ (its own pages, headers and sessions; see crates/console).
    let app = folio_api::app::router(registry, ctx.clone(), handles)
        .merge(folio_console::router(console));
    let workers = vec![
        transform.start(shutdown.clone()),
        tokio::spawn(prune_per_token_state(ctx.clone(), shutdown.clone())),
        tokio::spawn(sweep_spool(silo, shutdown.clone())),
    ];

    let public = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("binding public listener {}", config.listen))?;
    let ops = TcpListener::bind(config.ops_listen)
        .await
        .with_context(|| format!("binding operations listener {}", config.ops_listen))?;
    let public_addr = public.local_addr()?;
    let ops_addr = ops.local_addr()?;
    tracing::info!(
        backend = store.backend().name(),
        "listening on http://{public_addr} (operations on http://{ops_addr})"
    );
    // a line of its own: scripts read the addresses from the line above
    tracing::info!("web console: http://{public_addr}/console/");

    let ops_app = crate::ops::router(store.clone(), shutdown.clone());
    let connections = crate::http::ConnLimits::of(&config.limits);
    let done = tokio::spawn(async move {
        let public_server = crate::http::serve(public, app, connections, shutdown.clone());
        let signal = shutdown.clone();
        let ops_server = axum::serve(ops, ops_app)
            .with_graceful_shutdown(async move { signal.cancelled().await });
        let serving = async { tokio::join!(public_server, ops_server.into_future()).1 };
        tokio::select! {
            result = serving => { result?; }
            _ = async { shutdown.cancelled().await; tokio::time::sleep(DRAIN_TIMEOUT).await } => {
                tracing::warn!("drain timeout: stopping with requests still in flight");
            }
        }
        for worker in workers {
            let _ = worker.await;
        }
        store.close().await;
        tracing::info!("stopped");
        Ok(())
    });
    Ok(Running {
        public: public_addr,
        ops: ops_addr,
        done,
    })
}

fn open_blobs(spec: &str) -> anyhow::Result<folio_store::Blobs> {
    let blobs = if spec.contains("://") {
        folio_store::Blobs::from_url(spec)?
    } else {
        folio_store::Blobs::local(std::path::Path::new(spec))?
    };
    Ok(blobs)
}

/// Expired spool files are deleted, bytes and row, by every node (deleting twice is harmless).
async fn sweep_spool(silo: folio_silo::Silo, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(silo.spool_sweep_every());
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tick.tick() => {
                if let Err(e) = silo.sweep_spool().await {
                    tracing::warn!(error = %e, "spool sweep failed; retrying at the next tick");
                }
            }
        }
    }
}

/// The rate limiter and the token cache keep an entry per token; forget idle ones now and then,
/// and the console's expired sessions.
async fn prune_per_token_state(ctx: Ctx, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tick.tick() => {
                ctx.rate_limiter().retain_recent();
                ctx.auth().prune();
                // expired console sessions and sign-in links
                if let Err(error) = ctx.store().prune_console_sign_ins(chrono::Utc::now()).await {
                    tracing::warn!(%error, "pruning console sessions failed");
                }
            }
        }
    }
}
