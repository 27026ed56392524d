//! Sweden: tax categories, keys and rates (facts from the GOBL regime definitions); the VAT
//! number (an organisation or person number that passes Luhn, then `01`), and the
//! organisation (`ON`), person (`PN`) and coordination (`CN`) number identities.

use super::identities::{
    each_identity, each_identity_mut, id_code, id_type, numeric, supplier_code_or_identity,
};
use super::taxid::{bad, digits, luhn};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Sweden regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SE",
    alt_countries: &[],
    currency: "SEK",
    time_zone: "Europe/Stockholm",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks {
        tax_id: Some(tax_id),
        normalize: Some(normalize),
        validate: Some(validate),
        ..Hooks::NONE
    },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse charge: Customer to account for VAT to the relevant tax authority." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(19900101), percent: "25.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19960101), percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19960101), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

const ORG_NR: &str = "ON";
const PERSON_NR: &str = "PN";
const COORDINATION_NR: &str = "CN";

/// A VAT number: twelve digits, the last two `01`, the ten before them Luhn-valid.
fn tax_id(code: &str) -> Result<(), String> {
    if code.len() != 12 {
        return bad("length");
    }
    let Some(number) = code.strip_suffix("01") else {
        return bad("suffix, expected 01");
    };
    let d = digits(number).ok_or("invalid format")?;
    if luhn(&d) { Ok(()) } else { bad("check digit") }
}

/// Organisation numbers become their ten digits (a VAT number's `01` dropped); person and
/// coordination numbers `YYMMDD-NNNN`, keeping a `+` (born a century ago) as separator.
/// Codes with another count of digits are left as they are.
fn normalize(doc: &mut Doc) {
    each_identity_mut(doc, &mut |id| {
        let code = match id_type(id) {
            ORG_NR => org_number_code(id_code(id)),
            PERSON_NR | COORDINATION_NR => individual_code(id_code(id)),
            _ => None,
        };
        if let Some(c) = code {
            id.insert("code".into(), c.into());
        }
    });
}

fn org_number_code(code: &str) -> Option<String> {
    let mut d = numeric(code);
    if d.len() == 12 && d.ends_with("01") {
        d.truncate(10);
    }
    (d.len() == 10).then_some(d)
}

fn individual_code(code: &str) -> Option<String> {
    let code = code.trim();
    // Ten characters without a separator get one, whatever they are (the format rule
    // reports what is not a number).
    if code.len() == 10 && code.is_ascii() && !code.contains(['-', '+']) {
        return Some(format!("{}-{}", &code[..6], &code[6..]));
    }
    let d = numeric(code);
    if d.len() != 10 {
        return None;
    }
    let sep = if code.contains('+') { '+' } else { '-' };
    Some(format!("{}{sep}{}", &d[..6], &d[6..]))
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    supplier_code_or_identity(
        doc,
        &[ORG_NR, PERSON_NR, COORDINATION_NR],
        "se-bill-invoice-01",
        "invoice SE supplier must have either tax ID code or identity with ON, PN, or CN type",
        faults,
    );
    each_identity(doc, &mut |path, id| {
        let fault = match id_type(id) {
            ORG_NR => org_number_fault(id_code(id)),
            PERSON_NR | COORDINATION_NR => individual_fault(id_code(id)),
            _ => None,
        };
        if let Some((code, message)) = fault {
            faults.push(Fault::at(path.member("code").to_string(), code, message));
        }
    });
}

/// Ten digits once everything else is dropped (as GOBL's numerical code does), passing Luhn.
fn org_number_fault(code: &str) -> Option<(&'static str, &'static str)> {
    let d = digits(&numeric(code)).filter(|d| d.len() == 10);
    match d {
        None => Some(("se-org-identity-01", "invalid organization number format")),
        Some(d) => (!luhn(&d)).then_some(("se-org-identity-02", "invalid checksum")),
    }
}

/// `YYMMDD-NNNN` or `YYMMDD+NNNN` whose ten digits pass Luhn.
fn individual_fault(code: &str) -> Option<(&'static str, &'static str)> {
    let b = code.as_bytes();
    let well_formed = b.len() == 11
        && matches!(b[6], b'-' | b'+')
        && b[..6].iter().chain(&b[7..]).all(u8::is_ascii_digit);
    if !well_formed {
        return Some((
            "se-org-identity-03",
            "invalid person or coordination number format",
        ));
    }
    (!luhn(&digits(&numeric(code))?)).then_some(("se-org-identity-04", "invalid checksum"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn vat_numbers() {
        check_codes(
            "SE",
            &["202100548901", ""],
            &[
                "20210054890",
                "2021005489001",
                "202100548900",
                "202100548801",
                "202100548A01",
            ],
        );
        for raw in [
            "SE012345678901",
            "se012345678901",
            "  SE 0123456789 01  ",
            "SE-0123456789-01",
        ] {
            assert_eq!(normalized("SE", raw), "012345678901");
        }
    }

    fn identity(typ: &str, code: &str) -> Doc {
        json!({"supplier": {"identities": [{"type": typ, "code": code}]}})
            .as_object()
            .unwrap()
            .clone()
    }

    fn normalized_identity(typ: &str, code: &str) -> String {
        let mut doc = identity(typ, code);
        normalize(&mut doc);
        doc["supplier"]["identities"][0]["code"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn identity_normalisation() {
        for (typ, raw, want) in [
            ("ON", "5560360793", "5560360793"),
            ("ON", "556036-0793", "5560360793"),
            ("ON", "  556036 0793  ", "5560360793"),
            ("ON", "5560360793-01", "5560360793"),
            ("ON", "", ""),
            ("ON", "ABCDEFGHIJK", "ABCDEFGHIJK"),
            ("PN", "800101-0017", "800101-0017"),
            ("PN", "800101+0017", "800101+0017"),
            ("PN", "  800101-0017  ", "800101-0017"),
            ("PN", "8001010017", "800101-0017"),
            ("PN", "80010-001", "80010-001"),
            ("PN", "80010101-00177", "80010101-00177"),
            ("CN", "8001610017", "800161-0017"),
            ("CN", "8001+00177", "8001+00177"),
            ("PN", "80010A0017", "80010A-0017"),
            ("unknown", "1234567890", "1234567890"),
        ] {
            assert_eq!(normalized_identity(typ, raw), want, "{typ} {raw}");
        }
    }

    fn identity_faults(typ: &str, code: &str) -> Vec<String> {
        let mut faults = Vec::new();
        validate(&identity(typ, code), &mut faults);
        faults
            .into_iter()
            .map(|f| f.code)
            .filter(|c| c.starts_with("se-org-"))
            .collect()
    }

    #[test]
    fn identity_rules() {
        for (typ, code) in [
            ("ON", "5560360793"),
            ("PN", "800101-0019"),
            ("CN", "800161-0016"),
        ] {
            assert!(identity_faults(typ, code).is_empty(), "{typ} {code}");
        }
        assert!(identity_faults("unknown", "1234567890").is_empty());
        for (typ, code, want) in [
            ("ON", "123456789", "se-org-identity-01"),
            ("ON", "12345678901", "se-org-identity-01"),
            ("ON", "123456789A", "se-org-identity-01"),
            ("ON", "5560360794", "se-org-identity-02"),
            ("PN", "8001010019", "se-org-identity-03"),
            ("PN", "800101-001", "se-org-identity-03"),
            ("PN", "800101-00177", "se-org-identity-03"),
            ("PN", "800101-001A", "se-org-identity-03"),
            ("PN", "800101-0018", "se-org-identity-04"),
            ("CN", "8001610017", "se-org-identity-03"),
            ("CN", "800161-0018", "se-org-identity-04"),
        ] {
            assert_eq!(identity_faults(typ, code), [want], "{typ} {code}");
        }
    }

    #[test]
    fn supplier_needs_a_code_or_an_identity() {
        let mut faults = Vec::new();
        validate(&identity("other", "1"), &mut faults);
        assert_eq!(faults[0].code, "se-bill-invoice-01");
    }

    #[test]
    fn rates() {
        assert_eq!(
            percent_on("SE", "VAT", "standard", "reduced", "1996-01-01").unwrap(),
            "12.0%"
        );
        assert_eq!(
            percent_on("SE", "VAT", "standard", "reduced", "1995-12-31"),
            None
        );
        assert_eq!(
            percent_on("SE", "VAT", "standard", "general", "1990-01-01").unwrap(),
            "25.0%"
        );
    }
}
