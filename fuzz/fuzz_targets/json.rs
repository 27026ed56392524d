//! `gobl::json`: never panics; an accepted text prints back to an equal value and is JSON to
//! serde_json too; serde_json's JSON is refused only under folio's stricter rules.
#![no_main]

use gobl::json::{parse, parse_bytes};
use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;

fuzz_target!(|data: &[u8]| {
    let ours = parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(parse(text), ours, "parse and parse_bytes disagree");
    }
    let theirs = serde_json::from_slice::<Box<RawValue>>(data);
    match &ours {
        Ok(value) => {
            assert!(theirs.is_ok(), "serde_json refuses: {:?}", theirs.err());
            let printed = value.to_json_string();
            assert_eq!(parse(&printed).as_ref(), Ok(value), "printed as {printed}");
        }
        // Refused on purpose (see json.rs): duplicate keys, deep nesting, lone surrogates.
        Err(e) if theirs.is_ok() => assert!(
            ["duplicate", "nesting", "surrogate"]
                .iter()
                .any(|w| e.message.contains(w)),
            "serde_json accepts, gobl says: {e}"
        ),
        Err(_) => {}
    }
});
