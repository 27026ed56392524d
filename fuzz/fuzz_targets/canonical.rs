//! `gobl::canonical`: canonical text re-parses and is a fixed point (what digests rely on);
//! a canonical number is the same number and canonical again.
#![no_main]

use gobl::canonical::{CanonicalError, canonical, canonical_number};
use gobl::json::{parse, parse_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        number(text.trim());
    }
    let Ok(value) = parse_bytes(data) else {
        return;
    };
    match canonical(&value) {
        Ok(c) => {
            let again = parse(&c).unwrap_or_else(|e| panic!("{e} in canonical {c}"));
            assert_eq!(
                canonical(&again).as_deref(),
                Ok(c.as_str()),
                "not a fixed point"
            );
        }
        Err(CanonicalError::NumberOutOfRange(_)) => {}
        Err(e) => panic!("parsed value has no canonical form: {e}"),
    }
});

fn number(literal: &str) {
    let Ok(out) = canonical_number(literal) else {
        return;
    };
    assert_eq!(
        canonical_number(&out).as_deref(),
        Ok(out.as_str()),
        "{literal}"
    );
    // Both are JSON numbers, hence valid Rust float syntax.
    let (a, b): (f64, f64) = (literal.parse().unwrap(), out.parse().unwrap());
    assert!(a == b, "{literal} became {out}");
}
