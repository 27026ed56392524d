//! Singapore: tax categories, keys and rates (facts from the GOBL regime definitions), and
//! the UEN (Unique Entity Number) as the GST number and as a `UEN` identity. No check digit
//! algorithm is published: formats only.

use super::identities::{
    each_identity, each_identity_mut, id_code, id_type, supplier_code_or_identity,
};
use super::taxid::bad;
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Singapore regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SG",
    alt_countries: &[],
    currency: "SGD",
    time_zone: "Asia/Singapore",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(gst_number),
        normalize: Some(normalize),
        validate: Some(validate),
        ..Hooks::NONE
    },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "GST",
            retained: false,
            informative: false,
            keys: &[KeyDef { key: "standard", no_percent: false }, KeyDef { key: "zero", no_percent: false }, KeyDef { key: "exempt", no_percent: true }, KeyDef { key: "outside-scope", no_percent: true }],
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "9%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20230101), percent: "8%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20070701), percent: "7%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20040101), percent: "5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20030101), percent: "4%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19940401), percent: "3%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

const UEN: &str = "UEN";

/// `[0-9]` as a byte test.
fn digit(b: &u8) -> bool {
    b.is_ascii_digit()
}

/// `[A-Z]` as a byte test.
fn upper(b: &u8) -> bool {
    b.is_ascii_uppercase()
}

/// A UEN: ROC (a year 19xx/20xx, five digits, a letter), ROB (eight digits, a letter) or
/// other entities (`T` or `S`, two digits, two letters, four digits, a letter).
fn is_uen(code: &str) -> bool {
    let b = code.as_bytes();
    match b.len() {
        10 if matches!(&b[..2], b"19" | b"20") && b[2..9].iter().all(digit) && upper(&b[9]) => true,
        9 => b[..8].iter().all(digit) && upper(&b[8]),
        10 => {
            matches!(b[0], b'T' | b'S')
                && b[1..3].iter().all(digit)
                && b[3..5].iter().all(upper)
                && b[5..9].iter().all(digit)
                && upper(&b[9])
        }
        _ => false,
    }
}

/// A GST number: a UEN, or `M`, a letter or digit, seven digits and a letter.
fn gst_number(code: &str) -> Result<(), String> {
    let b = code.as_bytes();
    let gst = b.len() == 10
        && b[0] == b'M'
        && b[1].is_ascii_alphanumeric()
        && b[2..9].iter().all(digit)
        && upper(&b[9]);
    if gst || is_uen(code) {
        Ok(())
    } else {
        bad("format")
    }
}

/// UEN identities are normalised as tax codes are: upper-case, symbols and `SG` dropped.
fn normalize(doc: &mut Doc) {
    each_identity_mut(doc, &mut |id| {
        if id_type(id) == UEN {
            let code = crate::bill::normalize_tax_id_code(id_code(id), "SG", &[]);
            id.insert("code".into(), code.into());
        }
    });
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    supplier_code_or_identity(
        doc,
        &[UEN],
        "sg-bill-invoice-01",
        "invoice supplier in Singapore must have a GST tax ID code or a UEN identity",
        faults,
    );
    each_identity(doc, &mut |path, id| {
        if id_type(id) == UEN && !is_uen(id_code(id)) {
            faults.push(Fault::at(
                path.member("code").to_string(),
                "sg-org-identity-01",
                "identity code for type UEN must be valid",
            ));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::testutil::{check_codes, percent_on};

    #[test]
    fn gst_numbers() {
        check_codes(
            "SG",
            &[
                "M91234567X",
                "MR2345678A",
                "MB2345678A",
                "MX2345678A",
                "199912345A",
                "12345678A",
                "T12AB1234A",
                "",
            ],
            &[
                "M91234567",
                "M91234567XA",
                "912345678X",
                "M912345678",
                "S1234567A",
                "1234567A",
                "2199123456",
                "T12A1234A",
            ],
        );
    }

    #[test]
    fn uen_identities() {
        let mut doc =
            json!({"supplier": {"identities": [{"type": "UEN", "code": "sg.1999 12345-a"}]}})
                .as_object()
                .unwrap()
                .clone();
        normalize(&mut doc);
        assert_eq!(doc["supplier"]["identities"][0]["code"], "199912345A");
        let mut faults = Vec::new();
        validate(&doc, &mut faults);
        assert!(faults.is_empty(), "{faults:?}");
        for code in ["S1234567A", "1234567A", "2199123456", "T12A1234A", ""] {
            assert!(!is_uen(code), "{code}");
        }
        doc["supplier"]["identities"][0]["code"] = json!("S1234567A");
        validate(&doc, &mut faults);
        assert_eq!(faults.len(), 1);
        assert_eq!(faults[0].code, "sg-org-identity-01");
    }

    #[test]
    fn rates() {
        let on = |date| percent_on("SG", "GST", "standard", "general", date).unwrap();
        assert_eq!(on("2022-12-31"), "7%");
        assert_eq!(on("2023-01-01"), "8%");
        assert_eq!(on("2023-12-31"), "8%");
        assert_eq!(on("2024-01-01"), "9%");
        assert_eq!(on("1994-04-01"), "3%");
    }
}
