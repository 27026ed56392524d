//! `gobl::regimes::taxid`: never panics on any UTF-8 and any country; a known regime accepts
//! only [A-Z0-9] codes; the helpers agree with `check`.
#![no_main]

use gobl::regimes::taxid::{check, fr_siren_to_vat, it_fiscal_code};
use libfuzzer_sys::fuzz_target;

const KNOWN: [&str; 8] = ["ES", "DE", "FR", "IT", "PT", "NL", "GB", "US"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    // The first byte picks a known regime, or says the next two bytes are the country.
    let (country, code) = match KNOWN.get(usize::from(pick % 10)) {
        Some(c) => (c.to_string(), String::from_utf8_lossy(rest)),
        None => {
            let (c, r) = rest.split_at(rest.len().min(2));
            (
                String::from_utf8_lossy(c).into_owned(),
                String::from_utf8_lossy(r),
            )
        }
    };
    if check(&country, &code).is_ok() && KNOWN.contains(&country.as_str()) {
        assert!(
            code.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()),
            "{country} accepts {code:?}"
        );
    }
    if it_fiscal_code(&code).is_ok() {
        assert_eq!(check("IT", &code), Ok(()), "{code}");
    }
    if let Some(vat) = fr_siren_to_vat(&code) {
        assert!(vat.len() == 11 && vat.ends_with(&*code), "{code} -> {vat}");
        assert_eq!(check("FR", &vat), Ok(()), "{code} -> {vat}");
    }
});
