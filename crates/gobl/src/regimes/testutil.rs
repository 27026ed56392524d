//! Test helpers shared by the regimes' own tests.

use crate::tax::defs::date_num;

/// The percent of a regime's rate on `date` (`YYYY-MM-DD`), as GOBL prints it; `None`
/// before the rate's first value.
pub(crate) fn percent_on(cc: &str, cat: &str, key: &str, rate: &str, date: &str) -> Option<String> {
    let d = date_num(date).expect("a valid date");
    let r = super::get(cc)?.category(cat)?.rate(key, rate)?;
    Some(r.value_on(d, |_| None)?.percent().to_string())
}

/// Assert that each normalised code passes (`ok`) or fails the regime's tax-id check.
pub(crate) fn check_codes(cc: &str, ok: &[&str], bad: &[&str]) {
    for c in ok {
        let r = super::taxid::check(cc, c);
        assert!(r.is_ok(), "{cc} {c} should be valid: {r:?}");
    }
    for c in bad {
        assert!(
            super::taxid::check(cc, c).is_err(),
            "{cc} {c} should be invalid"
        );
    }
}

/// The tax-id code `raw` after normalisation, as a document's `tax_id` would carry it.
pub(crate) fn normalized(cc: &str, raw: &str) -> String {
    let mut doc = crate::json!({
        "$schema": "https://gobl.org/draft-0/tax/identity",
        "country": cc,
        "code": raw,
    })
    .as_object()
    .unwrap()
    .clone();
    crate::bill::normalize_document(&mut doc).unwrap();
    doc["code"].as_str().unwrap().to_string()
}
