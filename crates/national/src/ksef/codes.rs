//! FA(3) code lists: invoice type, tax category of a rate (the P_13_x field it goes to),
//! the P_12 rate code of a line, units, payment means, EU country codes, and the shapes
//! of a NIP and of a KSeF number.

use gobl::model::{Ext, Invoice, RateTotal, TaxCombo};
use gobl::num::Percentage;

use super::format::percent;

pub(crate) const EXT_INVOICE_TYPE: &str = "pl-favat-invoice-type";
pub(crate) const EXT_TAX_CATEGORY: &str = "pl-favat-tax-category";
pub(crate) const EXT_PAYMENT_MEANS: &str = "pl-favat-payment-means";

/// The invoice type (`RodzajFaktury`): the add-on's code, else derived from the type and
/// tags as its scenarios do.
pub(crate) fn invoice_type(inv: &Invoice) -> String {
    if let Some(t) = inv.tax_ext(EXT_INVOICE_TYPE) {
        return t.to_string();
    }
    let base = if inv.kind == "credit-note" { "KOR" } else { "" };
    let suffix = if inv.has_tag("partial") {
        "ZAL"
    } else if inv.has_tag("settlement") {
        "ROZ"
    } else if inv.has_tag("simplified") && base.is_empty() {
        "UPR"
    } else {
        ""
    };
    match (base, suffix) {
        ("", "") => "VAT".into(),
        ("", s) => s.into(),
        (b, "") => b.into(),
        (b, s) => format!("{b}_{s}"),
    }
}

/// Whether the type is a correcting invoice.
pub(crate) fn is_correction(kind: &str) -> bool {
    kind.starts_with("KOR")
}

/// The tax categories in the order of their P_13_x fields.
pub(crate) const CATEGORIES: &[&str] = &[
    "1", "2", "3", "4", "5", "6.1", "6.2", "6.3", "7", "8", "9", "10", "11",
];

/// The tax category of a line's VAT combo: the add-on's code, else derived from the
/// combo's country, key and rate as the add-on does.
pub(crate) fn combo_category(c: &TaxCombo) -> Option<String> {
    if let Some(code) = c.ext.get(EXT_TAX_CATEGORY) {
        return Some(code.clone());
    }
    if c.country.as_deref().is_some_and(|cc| cc != "PL") {
        return Some("8".into());
    }
    let by_rate = match c.rate.as_deref() {
        Some("general" | "standard") => Some("1"),
        Some("reduced") => Some("2"),
        Some("super-reduced") => Some("3"),
        _ => None,
    };
    by_rate
        .map(str::to_string)
        .or_else(|| key_category(c.key.as_deref(), c.percent, &c.ext))
}

/// The tax category of a rate of the totals: the add-on's code, else derived from the
/// rate's key and percentage.
pub(crate) fn rate_category(r: &RateTotal) -> Option<String> {
    if r.country.as_deref().is_some_and(|cc| cc != "PL") && !r.ext.contains_key(EXT_TAX_CATEGORY) {
        return Some("8".into());
    }
    key_category(r.key.as_deref(), r.percent, &r.ext)
}

fn key_category(key: Option<&str>, p: Option<Percentage>, ext: &Ext) -> Option<String> {
    if let Some(code) = ext.get(EXT_TAX_CATEGORY) {
        return Some(code.clone());
    }
    let code = match key {
        Some("zero") => "6.1",
        Some("intra-community") => "6.2",
        Some("export") => "6.3",
        Some("exempt") => "7",
        Some("outside-scope") => "8",
        Some("reverse-charge") => "9",
        _ => return p.map(percent_category),
    };
    Some(code.into())
}

/// A standard rate's category by its size, as the reference did before the add-on.
fn percent_category(p: Percentage) -> String {
    let pct: f64 = percent(p).parse().unwrap_or(0.0);
    match pct {
        x if x >= 15.0 => "1",
        x if x >= 6.0 => "2",
        x if x > 4.0 => "3",
        x if x > 0.0 => "4",
        _ => "6.1",
    }
    .into()
}

/// The percentages `P_12` can carry.
const RATES: &[&str] = &["23", "22", "8", "7", "5", "4", "3"];

/// `P_12` of a line: the rate's figure, or the code of a category without a rate.
pub(crate) fn rate_code(category: &str, p: Option<Percentage>) -> Result<String, String> {
    let fixed = match category {
        "6.1" => Some("0 KR"),
        "6.2" => Some("0 WDT"),
        "6.3" => Some("0 EX"),
        "7" => Some("zw"),
        "8" => Some("np I"),
        "9" => Some("np II"),
        "10" => Some("oo"),
        _ => None,
    };
    if let Some(code) = fixed {
        return Ok(code.into());
    }
    match p.map(percent) {
        Some(f) if RATES.contains(&f.as_str()) => Ok(f),
        Some(f) if f == "0" => Ok("0 KR".into()),
        Some(f) => Err(format!("VAT rate {f}% in category {category}")),
        None => Err(format!("VAT category {category} without a rate")),
    }
}

/// The UN/ECE Recommendation 20 code of a GOBL unit (`h` → `HUR`); a code already.
pub(crate) fn unit_code(unit: &str) -> String {
    UNITS
        .iter()
        .find(|(gobl, _)| *gobl == unit)
        .map_or_else(|| unit.to_string(), |(_, code)| (*code).to_string())
}

/// GOBL unit keys and their UN/ECE codes.
#[rustfmt::skip]
const UNITS: &[(&str, &str)] = &[
    ("one", "C62"), ("item", "H87"), ("piece", "H87"), ("unit", "C62"), ("service", "E48"),
    ("set", "SET"), ("pair", "PR"), ("box", "XBX"), ("pallet", "XPX"), ("package", "XPK"),
    ("s", "SEC"), ("min", "MIN"), ("h", "HUR"), ("day", "DAY"), ("week", "WEE"),
    ("month", "MON"), ("year", "ANN"), ("g", "GRM"), ("kg", "KGM"), ("t", "TNE"),
    ("mm", "MMT"), ("cm", "CMT"), ("m", "MTR"), ("km", "KMT"), ("m2", "MTK"), ("m3", "MTQ"),
    ("ml", "MLT"), ("l", "LTR"), ("kwh", "KWH"), ("percent", "P1"),
];

/// The payment means code (`TFormaPlatnosci`): the add-on's, else the one it would set.
pub(crate) fn payment_means(key: Option<&str>, ext: &Ext) -> Option<String> {
    if let Some(code) = ext.get(EXT_PAYMENT_MEANS) {
        return Some(code.clone());
    }
    let code = match key? {
        "cash" => "1",
        "card" => "2",
        "other+voucher" => "3",
        "cheque" => "4",
        "other+credit" => "5",
        "credit-transfer" => "6",
        "online" => "7",
        _ => return None,
    };
    Some(code.into())
}

/// The FA(3) code of an EU member state other than Poland (`TKodyKrajowUE`: Greece is
/// `EL`), `None` outside the EU.
pub(crate) fn eu_code(country: &str) -> Option<&'static str> {
    const EU: &[&str] = &[
        "AT", "BE", "BG", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "EL", "HR", "HU", "IE", "IT",
        "LV", "LT", "LU", "MT", "NL", "PT", "RO", "SK", "SI", "ES", "SE", "XI",
    ];
    let c = if country == "GR" { "EL" } else { country };
    EU.iter().copied().find(|e| *e == c)
}

/// Whether `s` has the shape of a Polish NIP (`TNrNIP`: ten digits, not starting with 0,
/// the 2nd and 3rd not both 0).
pub(crate) fn is_nip(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().all(u8::is_ascii_digit)
        && b[0] != b'0'
        && (b[1] != b'0' || b[2] != b'0')
}

/// Whether `s` has the shape of a KSeF number (`TNumerKSeF`): the issuer's NIP, the date,
/// and hexadecimal groups (`9876543210-20251220-107FDF72DB53-F7`).
pub(crate) fn is_ksef_number(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let hex = |p: &str, n: usize| {
        p.len() == n
            && p.bytes()
                .all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(&c))
    };
    let issuer_ok = |p: &str| {
        let b = p.as_bytes();
        is_nip(p)
            || (b.len() == 10 && b[0] == b'M' && b[1..].iter().all(u8::is_ascii_digit))
            || (b.len() == 10
                && b[..3].iter().all(u8::is_ascii_uppercase)
                && b[3..].iter().all(u8::is_ascii_digit))
    };
    let date_ok = |p: &str| {
        p.len() == 8
            && chrono::NaiveDate::parse_from_str(p, "%Y%m%d")
                .is_ok_and(|d| d >= chrono::NaiveDate::from_ymd_opt(2020, 1, 1).expect("a date"))
    };
    match parts.as_slice() {
        [i, d, h, c] => issuer_ok(i) && date_ok(d) && hex(h, 12) && hex(c, 2),
        [i, d, h1, h2, c] => issuer_ok(i) && date_ok(d) && hex(h1, 6) && hex(h2, 6) && hex(c, 2),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ksef_numbers_and_nips_are_recognised() {
        assert!(is_ksef_number("9876543210-20251220-107FDF72DB53-F7"));
        assert!(is_ksef_number("8126178616-20260122-0100A0-039876-89"));
        assert!(!is_ksef_number("1234567890-20260120-XYZ98765-AB"));
        assert!(!is_ksef_number("1234567890-20260120-ABCD1234-EF"));
        assert!(is_nip("9876543210"));
        assert!(!is_nip("0123456789"));
        assert!(!is_nip("1004567890"));
    }

    #[test]
    fn rate_codes_follow_the_category() {
        let p = |s| Some(Percentage::parse(s).unwrap());
        assert_eq!(rate_code("1", p("23.0%")).unwrap(), "23");
        assert_eq!(rate_code("2", p("8%")).unwrap(), "8");
        assert_eq!(rate_code("7", None).unwrap(), "zw");
        assert_eq!(rate_code("6.2", p("0%")).unwrap(), "0 WDT");
        assert_eq!(rate_code("9", None).unwrap(), "np II");
        assert!(rate_code("1", p("19%")).is_err());
    }

    #[test]
    fn units_and_countries() {
        assert_eq!(unit_code("h"), "HUR");
        assert_eq!(unit_code("service"), "E48");
        assert_eq!(unit_code("KGM"), "KGM");
        assert_eq!(eu_code("GR"), Some("EL"));
        assert_eq!(eu_code("DE"), Some("DE"));
        assert_eq!(eu_code("US"), None);
    }
}
