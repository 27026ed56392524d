//! The guard as a pure function: no test here opens a connection.

use super::*;

/// URL spellings refused by default, with the rule each must name.
const REFUSED_URLS: &[(&str, &str)] = &[
    ("http://127.0.0.1/hook", "loopback"),
    ("http://127.1/", "loopback"),
    ("http://2130706433/", "loopback"),
    ("http://0x7f000001/", "loopback"),
    ("http://0177.0.0.1/", "loopback"),
    ("http://0x7f.0.0.1/", "loopback"),
    ("http://127.255.255.254:8080/", "loopback"),
    ("http://user:pw@127.0.0.1/", "loopback"),
    ("http://[::1]/", "loopback"),
    ("http://[0:0:0:0:0:0:0:1]/", "loopback"),
    ("http://[::ffff:127.0.0.1]/", "loopback"),
    ("http://[::ffff:7f00:1]/", "loopback"),
    ("http://[::127.0.0.1]/", "loopback"),
    ("http://localhost/", "loopback"),
    ("http://LOCALHOST./", "loopback"),
    ("http://api.localhost:9000/", "loopback"),
    ("http://169.254.169.254/latest/meta-data/", "link-local"),
    ("http://2852039166/latest/", "link-local"),
    ("http://[::ffff:169.254.169.254]/", "link-local"),
    ("http://[64:ff9b::a9fe:a9fe]/", "link-local"),
    ("http://[2002:a9fe:a9fe::1]/", "link-local"),
    ("http://[fe80::1]/", "link-local"),
    ("http://10.0.0.1/", "private"),
    ("http://10.255.255.255/", "private"),
    ("http://[::ffff:10.1.2.3]/", "private"),
    ("http://172.16.0.1/", "private"),
    ("http://172.31.255.254/", "private"),
    ("http://192.168.1.1/", "private"),
    ("http://[fc00::1]/", "private"),
    ("http://[fd12:3456::1]/", "private"),
    ("http://100.64.0.1/", "cgnat"),
    ("http://100.127.255.254/", "cgnat"),
    ("http://0.0.0.0/", "unspecified"),
    ("http://0/", "unspecified"),
    ("http://[::]/", "unspecified"),
    ("http://224.0.0.1/", "multicast"),
    ("http://239.255.255.250/", "multicast"),
    ("http://[ff02::1]/", "multicast"),
    ("http://255.255.255.255/", "broadcast"),
    ("http://192.0.2.10/", "documentation"),
    ("http://[2001:db8::1]/", "documentation"),
    ("http://240.0.0.1/", "reserved"),
    ("http://198.18.0.1/", "reserved"),
    ("ftp://example.com/", "scheme"),
    ("file:///etc/passwd", "scheme"),
    ("gopher://127.0.0.1:6379/", "scheme"),
];

/// Spellings of public destinations, allowed by default.
const ALLOWED_URLS: &[&str] = &[
    "http://93.184.216.34/",
    "https://1.1.1.1/",
    "http://8.8.8.8:8080/hook",
    "http://172.15.255.255/",
    "http://172.32.0.1/",
    "http://100.63.255.255/",
    "http://100.128.0.1/",
    "http://192.169.0.1/",
    "http://[2606:4700:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "https://example.com/hook",
    "https://hooks.example.org:8443/a?b=c",
];

#[test]
fn refused_spellings_name_their_rule() {
    let policy = Policy::default();
    for (url, rule) in REFUSED_URLS {
        let refusal = policy
            .check_url(url)
            .expect_err(&format!("{url} must be refused"));
        assert_eq!(refusal.rule, *rule, "{url}: {refusal}");
    }
}

#[test]
fn public_destinations_are_allowed() {
    let policy = Policy::default();
    for url in ALLOWED_URLS {
        assert_eq!(policy.check_url(url), Ok(()), "{url}");
    }
}

#[test]
fn at_least_thirty_spellings_are_tried() {
    assert!(REFUSED_URLS.len() + ALLOWED_URLS.len() >= 30);
}

#[test]
fn the_allow_list_opens_only_its_networks() {
    let policy = Policy::allowing(&["127.0.0.0/8", "10.1.0.0/16"]).unwrap();
    for url in [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://[::ffff:127.0.0.1]/",
        "http://10.1.2.3/",
    ] {
        assert_eq!(policy.check_url(url), Ok(()), "{url}");
    }
    for url in [
        "http://10.2.0.1/",
        "http://[::1]/",
        "http://169.254.169.254/",
    ] {
        assert!(policy.check_url(url).is_err(), "{url}");
    }
    // localhost is allowed through its IPv4 address; the connector gets only that one.
    assert_eq!(policy.check_url("http://localhost/"), Ok(()));
    let addrs = policy.filter("localhost", localhost("localhost").unwrap());
    assert_eq!(addrs, Ok(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]));
}

#[test]
fn resolved_names_are_filtered_address_by_address() {
    let policy = Policy::default();
    let public: IpAddr = "93.184.216.34".parse().unwrap();
    let metadata: IpAddr = "169.254.169.254".parse().unwrap();
    assert_eq!(
        policy.filter("mixed.example", vec![metadata, public]),
        Ok(vec![public])
    );
    let refusal = policy.filter("evil.example", vec![metadata]).unwrap_err();
    assert_eq!(refusal.rule, "link-local");
    assert!(refusal.to_string().contains("evil.example"));
}

#[test]
fn allow_entries_must_be_networks() {
    assert!(Policy::allowing(&["127.0.0.1"]).is_ok());
    assert!(Policy::allowing(&["::1/128"]).is_ok());
    let error = Policy::allowing(&["localhost"]).unwrap_err();
    assert!(error.contains("localhost"), "{error}");
}
