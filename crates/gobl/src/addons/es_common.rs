//! What the Spanish add-ons share: the kind of a Spanish tax code, EU membership, the
//! euro-conversion rule, the invoice types that correct another, and small readers and
//! writers of `ext` maps and tax combos. TicketBAI and FacturaE use it; Verifactu and SII
//! may too.

use crate::json::Value;

use crate::bill::val::{Obj, field, get, get_mut, string};

/// Invoice types that correct a preceding invoice (and so must name it).
pub(crate) const CORRECTION_TYPES: &[&str] = &["credit-note", "corrective", "debit-note"];

/// Current EU members, by ISO code (Greece also by its tax prefix `EL`).
const EU_MEMBERS: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "GR", "HR", "HU", "IE",
    "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// Whether `country` is a member of the EU today.
pub(crate) fn in_eu(country: &str) -> bool {
    EU_MEMBERS.contains(&country)
}

/// What a Spanish tax code identifies, read from its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaxCodeKind {
    /// A company or other legal entity (CIF letters).
    Org,
    /// A Spanish national (DNI).
    National,
    /// A resident foreigner (NIE: X, Y, Z).
    Foreigner,
    /// Other individuals (K, L, M).
    Other,
}

const CHECK_LETTERS: &str = "TRWAGMYFPDXBNJZSQVHLCKE";
const ORG_CHECKS: &str = "0123456789JABCDEFGHI";

/// The kind of a normalised Spanish tax `code`, when it has a known shape.
pub(crate) fn tax_code_kind(code: &str) -> Option<TaxCodeKind> {
    let b = code.as_bytes();
    if b.len() != 9 || !b[1..8].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (first, last) = (b[0] as char, b[8] as char);
    let one_of = |set: &str, c: char| set.contains(c);
    if one_of("ABCDEFGHJNPQRSUVW", first) && one_of(ORG_CHECKS, last) {
        Some(TaxCodeKind::Org)
    } else if first.is_ascii_digit() && one_of(CHECK_LETTERS, last) {
        Some(TaxCodeKind::National)
    } else if one_of("XYZ", first) && one_of(CHECK_LETTERS, last) {
        Some(TaxCodeKind::Foreigner)
    } else if one_of("KLM", first) && one_of(ORG_CHECKS, last) {
        Some(TaxCodeKind::Other)
    } else {
        None
    }
}

/// The kind of a party's tax id, when it is Spanish and has a code of known shape.
pub(crate) fn party_tax_code_kind(party: &Value) -> Option<TaxCodeKind> {
    let tax_id = field(party, "tax_id")?;
    if field(tax_id, "country").and_then(Value::as_str) != Some("ES") {
        return None;
    }
    tax_code_kind(field(tax_id, "code").and_then(Value::as_str)?)
}

/// Whether the invoice is in euros or gives an exchange rate from its currency to euros.
pub(crate) fn converts_to_eur(doc: &Obj) -> bool {
    let cur = string(doc, "currency").unwrap_or_default();
    cur == "EUR"
        || get(doc, "exchange_rates")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|r| {
                field(r, "from").and_then(Value::as_str) == Some(cur)
                    && field(r, "to").and_then(Value::as_str) == Some("EUR")
            })
}

/// Whether the invoice's type is one that corrects a preceding invoice.
pub(crate) fn is_correction(doc: &Obj) -> bool {
    string(doc, "type").is_some_and(|t| CORRECTION_TYPES.contains(&t))
}

/// The array at `doc[key]`, empty when absent.
pub(crate) fn list<'a>(o: &'a Obj, key: &str) -> &'a [Value] {
    get(o, key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Members of the invoice whose entries carry tax combos.
const COMBO_HOLDERS: &[&str] = &["lines", "discounts", "charges"];

/// Every tax combo of the invoice's lines, discounts and charges, with its path.
pub(crate) fn combos(doc: &Obj) -> Vec<(String, &Obj)> {
    let mut out = Vec::new();
    for holder in COMBO_HOLDERS {
        for (i, entry) in list(doc, holder).iter().enumerate() {
            let taxes = field(entry, "taxes").and_then(Value::as_array);
            for (j, combo) in taxes.into_iter().flatten().enumerate() {
                if let Some(c) = combo.as_object() {
                    out.push((format!("doc.{holder}[{i}].taxes[{j}]"), c));
                }
            }
        }
    }
    out
}

/// Apply `f` to every tax combo of the invoice's lines, discounts and charges.
pub(crate) fn each_combo_mut(doc: &mut Obj, mut f: impl FnMut(&mut Obj)) {
    for holder in COMBO_HOLDERS {
        let Some(Value::Array(entries)) = get_mut(doc, holder) else {
            continue;
        };
        for entry in entries.iter_mut() {
            let Some(Value::Array(taxes)) = entry.as_object_mut().and_then(|e| get_mut(e, "taxes"))
            else {
                continue;
            };
            taxes
                .iter_mut()
                .filter_map(Value::as_object_mut)
                .for_each(&mut f);
        }
    }
}

// The `ext` reader, writer and remover every add-on shares.
pub(crate) use crate::bill::val::{delete_ext, ext, set_ext};

/// Set extension `key` to `code` unless it has a value already.
pub(crate) fn set_ext_if_empty(o: &mut Obj, key: &str, code: &str) {
    if ext(o, key).is_none() {
        set_ext(o, key, code);
    }
}

/// Set extension `key` to `code` unless its value is one of `keep`.
pub(crate) fn set_ext_one_of(o: &mut Obj, key: &str, code: &str, keep: &[&str]) {
    if !ext(o, key).is_some_and(|v| keep.contains(&v)) {
        set_ext(o, key, code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_codes_are_told_apart_by_shape() {
        assert_eq!(tax_code_kind("B98602642"), Some(TaxCodeKind::Org));
        assert_eq!(tax_code_kind("54387763P"), Some(TaxCodeKind::National));
        assert_eq!(tax_code_kind("X1234567L"), Some(TaxCodeKind::Foreigner));
        assert_eq!(tax_code_kind("K1234567A"), Some(TaxCodeKind::Other));
        assert_eq!(tax_code_kind("I1234567A"), None);
        assert_eq!(tax_code_kind("B9860264"), None);
    }

    #[test]
    fn euro_or_a_rate_to_euros_converts() {
        let doc = |v: Value| v.as_object().unwrap().clone();
        assert!(converts_to_eur(&doc(crate::json!({"currency": "EUR"}))));
        let usd = crate::json!({"currency": "USD",
            "exchange_rates": [{"from": "USD", "to": "EUR", "amount": "0.9"}]});
        assert!(converts_to_eur(&doc(usd)));
        assert!(!converts_to_eur(&doc(crate::json!({"currency": "USD"}))));
    }
}
