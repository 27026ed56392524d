//! The guarded HTTP client: a resolver that checks every address a name resolves to and gives
//! the connector only the allowed ones, so the address connected to is the address checked.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::{Policy, localhost};

struct GuardedResolver {
    policy: Policy,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str();
            let addrs = match localhost(host) {
                Some(addrs) => addrs,
                None => lookup(host).await?,
            };
            let allowed = policy.filter(host, addrs)?;
            // The connector fills in the port.
            let addrs: Addrs = Box::new(allowed.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

async fn lookup(host: &str) -> std::io::Result<Vec<IpAddr>> {
    Ok(tokio::net::lookup_host((host, 0))
        .await?
        .map(|a| a.ip())
        .collect())
}

/// The HTTP client of actions: guarded resolver, no redirects, no proxy from the environment
/// (a proxy would be connected to instead of the checked address).
pub fn client(policy: &Policy) -> reqwest::Client {
    reqwest::Client::builder()
        .dns_resolver(Arc::new(GuardedResolver {
            policy: policy.clone(),
        }))
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .expect("the HTTP client builds (no TLS back-end or system configuration to load)")
}

/// The refusal inside a failed request, if the guard is why it failed.
pub fn refusal(error: &reqwest::Error) -> Option<super::Refused> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(r) = e.downcast_ref::<super::Refused>() {
            return Some(r.clone());
        }
        source = e.source();
    }
    None
}
