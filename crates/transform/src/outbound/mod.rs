//! The outbound guard: where actions that make requests (`webhook.send`, later fetches) may
//! connect.
//!
//! Loopback, private, link-local, CGNAT, multicast, broadcast, documentation and reserved
//! networks are refused unless the operator allows them (`[outbound] allow`). The guard judges
//! the address actually connected to: literal addresses before the request, names inside the
//! HTTP client's resolver ([`client`]), which resolves once and hands the connector only the
//! addresses it checked, so a second lookup (DNS rebinding) cannot happen. Redirects are not
//! followed and proxies from the environment are not used.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

mod resolve;
mod rules;

pub use resolve::{client, refusal};
pub use rules::{canonical, rule_for};

/// Why a destination is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{target} is refused by the outbound rule '{rule}' (allow it in [outbound] allow of folio.toml)"
)]
pub struct Refused {
    /// The address or name refused.
    pub target: String,
    /// The rule's name (`loopback`, `private`, `link-local`, ..., or `scheme`).
    pub rule: &'static str,
}

/// The operator's policy: the default refusals minus the allowed networks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Policy {
    allow: Vec<IpNet>,
}

impl Policy {
    /// A policy allowing these networks (`127.0.0.0/8`, `::1`, a bare address is one host).
    pub fn allowing<S: AsRef<str>>(networks: &[S]) -> Result<Self, String> {
        let allow = networks
            .iter()
            .map(|n| parse_network(n.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Policy { allow })
    }

    /// The allowed networks.
    pub fn allowed(&self) -> &[IpNet] {
        &self.allow
    }

    /// Whether a connection to `ip` is allowed; the refusal names the rule.
    pub fn check_ip(&self, ip: IpAddr) -> Result<(), Refused> {
        let Some(rule) = rule_for(ip) else {
            return Ok(());
        };
        let real = canonical(ip);
        if self
            .allow
            .iter()
            .any(|n| n.contains(&ip) || n.contains(&real))
        {
            return Ok(());
        }
        Err(Refused {
            target: ip.to_string(),
            rule,
        })
    }

    /// Checks a URL before any connection: the scheme, and the host when it is a literal
    /// address or `localhost`. Other names are checked when they are resolved.
    pub fn check_url(&self, url: &str) -> Result<(), Refused> {
        let refused = |rule| Refused {
            target: url.to_string(),
            rule,
        };
        let parsed = reqwest::Url::parse(url).map_err(|_| refused("url"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(refused("scheme"));
        }
        match parsed.host() {
            None => Err(refused("url")),
            Some(url::Host::Ipv4(ip)) => self.check_ip(ip.into()),
            Some(url::Host::Ipv6(ip)) => self.check_ip(ip.into()),
            Some(url::Host::Domain(name)) => match localhost(name) {
                Some(addrs) => self.filter(name, addrs).map(drop),
                None => Ok(()),
            },
        }
    }

    /// The allowed ones of the addresses `name` resolved to, or the refusal of the first when
    /// none is allowed. Connecting only to what this returns is what makes the check hold.
    pub fn filter(&self, name: &str, addrs: Vec<IpAddr>) -> Result<Vec<IpAddr>, Refused> {
        let mut first_refusal = None;
        let allowed: Vec<IpAddr> = addrs
            .into_iter()
            .filter(|ip| match self.check_ip(*ip) {
                Ok(()) => true,
                Err(r) => {
                    first_refusal.get_or_insert(r);
                    false
                }
            })
            .collect();
        match (allowed.is_empty(), first_refusal) {
            (true, Some(r)) => Err(Refused {
                target: format!("{name} ({})", r.target),
                rule: r.rule,
            }),
            _ => Ok(allowed),
        }
    }
}

/// `localhost` and `*.localhost` always mean the loopback addresses (RFC 6761), whatever DNS
/// says, so they are judged without a lookup.
pub fn localhost(name: &str) -> Option<Vec<IpAddr>> {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    (name == "localhost" || name.ends_with(".localhost"))
        .then(|| vec![Ipv4Addr::LOCALHOST.into(), Ipv6Addr::LOCALHOST.into()])
}

fn parse_network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("[outbound] allow: {text:?} is not a network (like 127.0.0.0/8)"))
}

#[cfg(test)]
mod tests;
