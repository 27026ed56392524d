//! India: tax categories, keys, rates and scenarios (facts from the GOBL regime
//! definitions); the GSTIN (a state code, the PAN, an entity number, `Z` and a base-36 check
//! character) as the tax code; `PAN` and `HSN` identities, and an HSN code on every item.

use crate::json::Value;

use super::identities::{each_identity, each_identity_mut, id_code, id_type, numeric};
use super::taxid::bad;
use crate::bill::val::get;
use crate::fault::{Fault, Path};
use crate::tax::defs::*;

/// The India regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IN",
    alt_countries: &[],
    currency: "INR",
    time_zone: "Asia/Kolkata",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(gstin),
        normalize_tax_id: Some(without_second_prefix),
        normalize: Some(normalize),
        validate: Some(validate),
        ..Hooks::NONE
    },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], note: Some(ScenarioNote { cat: None, key: "reverse-charge", src: None, code: None, text: "Reverse Charge" }), ..Scenario::NONE },
        Scenario { tags: &["simplified"], note: Some(ScenarioNote { cat: None, key: "simplified", src: None, code: None, text: "Simplified Tax Invoice" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "CGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "SGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "UTGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

const PAN: &str = "PAN";
const HSN: &str = "HSN";

/// GOBL strips `IN` twice from Indian codes (as the country and again as an alternative
/// code): a GSTIN always starts with two digits, so a second `IN` is never part of it.
fn without_second_prefix(code: String) -> String {
    match code.strip_prefix("IN") {
        Some(rest) => rest.to_string(),
        None => code,
    }
}

/// Base-36 value of `0-9A-Z`.
fn value36(b: u8) -> u32 {
    char::from(b).to_digit(36).unwrap_or(0)
}

/// A PAN: five letters, four digits, a letter.
fn is_pan(b: &[u8]) -> bool {
    b.len() == 10
        && b[..5].iter().all(u8::is_ascii_uppercase)
        && b[5..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase()
}

/// GSTIN: two digits, a PAN, an entity character `1-9A-Z`, `Z`, and a check character:
/// values at even places (from 0) count once, at odd places twice, each product adding
/// its base-36 digits; the check is `(36 - sum mod 36) mod 36`.
fn gstin(code: &str) -> Result<(), String> {
    let b = code.as_bytes();
    let shaped = b.len() == 15
        && b[..2].iter().all(u8::is_ascii_digit)
        && is_pan(&b[2..12])
        && (b[12].is_ascii_uppercase() || (b'1'..=b'9').contains(&b[12]))
        && b[13] == b'Z'
        && b[14].is_ascii_alphanumeric();
    if !shaped {
        return bad("GSTIN format");
    }
    let sum: u32 = b[..14]
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let p = value36(c) * if i % 2 == 1 { 2 } else { 1 };
            p / 36 + p % 36
        })
        .sum();
    if (36 - sum % 36) % 36 == value36(b[14]) {
        Ok(())
    } else {
        bad("check character")
    }
}

/// PAN codes become upper-case letters and digits; HSN codes digits.
fn normalize(doc: &mut Doc) {
    each_identity_mut(doc, &mut |id| {
        let code = match id_type(id) {
            PAN => id_code(id)
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_uppercase())
                .collect(),
            HSN => numeric(id_code(id)),
            _ => return,
        };
        id.insert("code".into(), code.into());
    });
}

/// An HSN code has four, six or eight digits.
fn is_hsn(code: &str) -> bool {
    matches!(code.len(), 4 | 6 | 8) && code.bytes().all(|b| b.is_ascii_digit())
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    // An empty code is the core identity rule's to report: GOBL's pattern tests pass it.
    each_identity(doc, &mut |path, id| {
        if id_code(id).is_empty() {
            return;
        }
        let fault = match id_type(id) {
            PAN if !is_pan(id_code(id).as_bytes()) => (
                "in-org-identity-01",
                "identity code must be a valid PAN format",
            ),
            HSN if !is_hsn(id_code(id)) => (
                "in-org-identity-02",
                "identity code must be a valid HSN format",
            ),
            _ => return,
        };
        faults.push(Fault::at(path.member("code").to_string(), fault.0, fault.1));
    });
    items_have_hsn(doc, faults);
}

/// Every line's item carries an `HSN` identity.
fn items_have_hsn(doc: &Doc, faults: &mut Vec<Fault>) {
    let lines = Path::Root("doc.lines");
    for (i, line) in get(doc, "lines")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(item) = line.get("item").and_then(Value::as_object) else {
            continue;
        };
        let has_hsn = get(item, "identities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .any(|id| id_type(id) == HSN);
        if !has_hsn {
            let at = lines.item(i);
            let path = at.member("item").member("identities").to_string();
            faults.push(Fault::at(
                path,
                "in-org-item-01",
                "all items must have an HSN identity code",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::testutil::{check_codes, normalized};

    #[test]
    fn gstins() {
        check_codes(
            "IN",
            &[
                "27AAPFU0939F1ZV",
                "29AAGCB7383J1Z4",
                "10AABCU9355J1Z9",
                "09AABCU9355J1ZS",
                "",
            ],
            &[
                "27AAPFU0939F",
                "AAAPFU0939F1ZV",
                "27AAPFU0939F1Z0",
                "27AAPFU0939F1ZV12",
                "27AAPFU0939F0ZV",
            ],
        );
        for raw in [
            "27aapfu0939f1zv",
            "  27AAPFU0939F1ZV  ",
            "27-AAPFU0939F1-ZV",
            "IN27AAPFU0939F1ZV",
        ] {
            assert_eq!(normalized("IN", raw), "27AAPFU0939F1ZV", "{raw}");
        }
    }

    fn faults(doc: crate::json::Value) -> Vec<(String, String)> {
        let mut f = Vec::new();
        validate(doc.as_object().unwrap(), &mut f);
        f.into_iter().map(|f| (f.code, f.paths.join(","))).collect()
    }

    #[test]
    fn identities_and_items() {
        let mut doc = json!({
            "supplier": {"identities": [{"type": "PAN", "code": "aapfu-0939f"}]},
            "lines": [
                {"item": {"name": "a", "identities": [{"type": "HSN", "code": "1234.56"}]}},
                {"item": {"name": "b"}},
                {"item": {"name": "c", "identities": [{"type": "HSN", "code": "12345"}]}},
            ]
        });
        normalize(doc.as_object_mut().unwrap());
        assert_eq!(doc["supplier"]["identities"][0]["code"], "AAPFU0939F");
        assert_eq!(doc["lines"][0]["item"]["identities"][0]["code"], "123456");
        assert_eq!(
            faults(doc),
            [
                (
                    "in-org-identity-02".into(),
                    "doc.lines[2].item.identities[0].code".into()
                ),
                (
                    "in-org-item-01".into(),
                    "doc.lines[1].item.identities".into()
                ),
            ]
        );
        let bad_pan = json!({"supplier": {"identities": [{"type": "PAN", "code": "AAPFU0939"}]}});
        assert_eq!(faults(bad_pan)[0].0, "in-org-identity-01");
        let empty = json!({"supplier": {"identities": [{"type": "PAN", "code": ""}]}});
        assert!(faults(empty).is_empty());
    }
}
