//! The networks refused by default, each with the rule name reported when it matches.
//!
//! IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the
//! IPv4 address inside them, so `[::ffff:169.254.169.254]` is as refused as `169.254.169.254`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// (network, rule name) pairs, most specific first where they overlap.
const REFUSED: &[(&str, &str)] = &[
    // IPv4
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "cgnat"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved"),
    ("192.0.2.0/24", "documentation"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "reserved"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("255.255.255.255/32", "broadcast"),
    ("240.0.0.0/4", "reserved"),
    // IPv6
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("100::/64", "reserved"),
    ("64:ff9b:1::/48", "reserved"),
    ("2001::/23", "reserved"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("fc00::/7", "private"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "link-local"),
    ("ff00::/8", "multicast"),
];

/// The refused networks, parsed once.
fn refused() -> &'static [(IpNet, &'static str)] {
    static NETS: std::sync::OnceLock<Vec<(IpNet, &'static str)>> = std::sync::OnceLock::new();
    NETS.get_or_init(|| {
        REFUSED
            .iter()
            .map(|(net, rule)| (net.parse().expect("a valid built-in network"), *rule))
            .collect()
    })
}

/// The rule that refuses `ip` by default, if any.
pub fn rule_for(ip: IpAddr) -> Option<&'static str> {
    let ip = canonical(ip);
    refused()
        .iter()
        .find(|(net, _)| net.contains(&ip))
        .map(|(_, rule)| *rule)
}

/// The address a packet to `ip` really reaches: the IPv4 address inside the IPv6 forms that
/// embed one, else `ip` itself.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => embedded_v4(v6).map_or(ip, IpAddr::V4),
    }
}

fn embedded_v4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = v6.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    match s {
        // ::ffff:a.b.c.d (mapped)
        [0, 0, 0, 0, 0, 0xffff, _, _] => Some(low),
        // ::a.b.c.d (compatible, deprecated); :: and ::1 keep their own rules
        [0, 0, 0, 0, 0, 0, _, _] if v6.to_bits() > 1 => Some(low),
        // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(low),
        // 2002:aabb:ccdd::/48 (6to4)
        [0x2002, hi, lo, ..] => Some(Ipv4Addr::new(
            (hi >> 8) as u8,
            hi as u8,
            (lo >> 8) as u8,
            lo as u8,
        )),
        _ => None,
    }
}
