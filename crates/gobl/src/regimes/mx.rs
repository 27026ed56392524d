//! Mexico: tax categories, keys and rates (facts from the GOBL regime definitions), the RFC
//! (its normalisation keeps an `MX` that belongs to the code) and the migration of legacy
//! post-code extensions of an invoice's parties.

use crate::json::{Map, Value};

use crate::bill::val::{delete_ext, ext, set_ext};
use crate::tax::defs::*;

/// The Mexico regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "MX",
    alt_countries: &[],
    currency: "MXN",
    time_zone: "America/Mexico_City",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], stamps: &["sat-uuid"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(rfc), normalize: Some(normalize_invoice), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "16.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "8.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "RVAT",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IEPS",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RIEPS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ISR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

/// The parts of an RFC: 4 (people) or 3 (companies) letters, where `Ñ` and `&` count as
/// letters, six digits of a date, and a three-character check (homoclave).
fn rfc_kind(code: &str) -> Option<&'static str> {
    let c: Vec<char> = code.chars().collect();
    let letters = c.len().checked_sub(9)?;
    let (name, rest) = c.split_at(letters);
    let (date, check) = rest.split_at(6);
    let ok = name
        .iter()
        .all(|&x| x.is_ascii_uppercase() || x == 'Ñ' || x == '&')
        && date.iter().all(char::is_ascii_digit)
        && check
            .iter()
            .all(|x| x.is_ascii_uppercase() || x.is_ascii_digit());
    match letters {
        4 if ok => Some("person"),
        3 if ok => Some("company"),
        _ => None,
    }
}

/// An RFC of a person or a company.
fn rfc(code: &str) -> Result<(), String> {
    rfc_kind(code)
        .map(|_| ())
        .ok_or_else(|| "invalid RFC".into())
}

/// Normalise an RFC: upper-case, only `A-Z 0-9 Ñ &`, and the `MX` prefix removed only when
/// what remains is an RFC (a company's own code may start with `MX`).
pub fn normalize_rfc(code: &str) -> String {
    let c: String = code
        .to_uppercase()
        .chars()
        .filter(|x| x.is_ascii_uppercase() || x.is_ascii_digit() || *x == 'Ñ' || *x == '&')
        .collect();
    match c.strip_prefix("MX") {
        Some(rest) if rfc_kind(rest).is_some() => rest.to_string(),
        _ => c,
    }
}

const ISSUE_PLACE: &str = "mx-cfdi-issue-place";
const POST_CODE: &str = "mx-cfdi-post-code";

/// Legacy post codes: the supplier's (or its first address's code) becomes the invoice's
/// issue place unless one is given; the customer's moves to its first address; both leave
/// the parties' extensions.
fn normalize_invoice(doc: &mut Doc) {
    issue_place_from_supplier(doc);
    if let Some(cust) = doc.get_mut("customer").and_then(Value::as_object_mut) {
        customer_post_code_to_address(cust);
    }
    for role in ["supplier", "customer"] {
        if let Some(p) = doc.get_mut(role).and_then(Value::as_object_mut) {
            delete_ext(p, POST_CODE);
        }
    }
}

fn issue_place_from_supplier(doc: &mut Doc) {
    let given = doc
        .get("tax")
        .and_then(Value::as_object)
        .is_some_and(|t| ext(t, ISSUE_PLACE).is_some());
    let Some(sup) = doc.get("supplier").and_then(Value::as_object) else {
        return;
    };
    if given {
        return;
    }
    let first_code = || {
        sup.get("addresses")?
            .get(0)?
            .get("code")?
            .as_str()
            .filter(|c| !c.is_empty())
    };
    let Some(place) = ext(sup, POST_CODE).or_else(first_code).map(str::to_string) else {
        return;
    };
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(tax) = tax.as_object_mut() {
        set_ext(tax, ISSUE_PLACE, &place);
    }
}

fn customer_post_code_to_address(cust: &mut Map) {
    let Some(code) = ext(cust, POST_CODE).map(str::to_string) else {
        return;
    };
    let addrs = cust
        .entry("addresses".into())
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(list) = addrs.as_array_mut() {
        if list.is_empty() {
            list.push(Value::Object(Map::new()));
        }
        if let Some(first) = list[0].as_object_mut() {
            first.insert("code".into(), Value::String(code.into()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::taxid::check;

    #[test]
    fn rfc_formats() {
        for ok in [
            "XEXX010101000",
            "MNOP8201019HJ",
            "UVWX610715JKL",
            "STU760612MN1",
            "K&A010301I16",
            "ÑAB010301I16",
        ] {
            assert_eq!(check("MX", ok), Ok(()), "{ok}");
        }
        for ko in ["STU760612MN", "XXXX", "STU76061AMN1", "S7U760612MN1"] {
            assert!(check("MX", ko).is_err(), "{ko}");
        }
    }

    #[test]
    fn rfc_normalisation_keeps_an_mx_of_the_code() {
        for (raw, want) in [
            ("GHI70123123Z", "GHI70123123Z"),
            ("MXGHI70123123Z", "GHI70123123Z"),
            ("MXMXI70123123Z", "MXI70123123Z"),
            ("MXI70123123Z", "MXI70123123Z"),
            (" GHI 701231 23Z ", "GHI70123123Z"),
            ("GHI-701231-23Z", "GHI70123123Z"),
            ("K&A010301I16", "K&A010301I16"),
        ] {
            assert_eq!(normalize_rfc(raw), want, "{raw}");
        }
    }

    #[test]
    fn legacy_post_codes_move() {
        let mut doc = json!({
            "supplier": {"ext": {"mx-cfdi-post-code": "22000"}, "addresses": [{"code": "23000"}]},
            "customer": {"ext": {"mx-cfdi-post-code": "21000", "x": "1"}},
        });
        normalize_invoice(doc.as_object_mut().unwrap());
        assert_eq!(doc["tax"]["ext"][ISSUE_PLACE], "22000");
        assert!(doc["supplier"].get("ext").is_none());
        assert_eq!(doc["customer"]["addresses"][0]["code"], "21000");
        assert_eq!(doc["customer"]["ext"], json!({"x": "1"}));
        let mut given = json!({
            "tax": {"ext": {ISSUE_PLACE: "21000"}},
            "supplier": {"addresses": [{"code": "23000"}]},
        });
        normalize_invoice(given.as_object_mut().unwrap());
        assert_eq!(given["tax"]["ext"][ISSUE_PLACE], "21000");
        let mut from_address = json!({"supplier": {"addresses": [{"code": "23000"}]}});
        normalize_invoice(from_address.as_object_mut().unwrap());
        assert_eq!(from_address["tax"]["ext"][ISSUE_PLACE], "23000");
    }
}
