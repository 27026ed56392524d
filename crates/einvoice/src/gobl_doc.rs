//! Reading a GOBL document's JSON: small accessors that turn absent or mistyped members into
//! `None` rather than errors (the document was built and validated by the `gobl` crate).

use std::str::FromStr;

use en16931::{InvoiceAmount, Percentage, Quantity};
use rust_decimal::Decimal;
use serde_json::Value;

/// A string member at a `/`-separated path.
pub(crate) fn text<'a>(v: &'a Value, path: &str) -> Option<&'a str> {
    at(v, path)?.as_str().filter(|s| !s.trim().is_empty())
}

/// An owned string member at a path.
pub(crate) fn string(v: &Value, path: &str) -> Option<String> {
    text(v, path).map(str::to_owned)
}

/// The member at a `/`-separated path (`supplier/addresses/0/locality`).
pub(crate) fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('/').try_fold(v, |v, key| {
        // a member name never starts with a digit: only an index is parsed as one
        match key.as_bytes().first() {
            Some(c) if c.is_ascii_digit() => match key.parse::<usize>() {
                Ok(i) => v.get(i),
                Err(_) => v.get(key),
            },
            _ => v.get(key),
        }
    })
}

/// The array at a path, empty when absent.
pub(crate) fn list<'a>(v: &'a Value, path: &str) -> &'a [Value] {
    at(v, path)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// A decimal from a GOBL amount string or JSON number.
pub(crate) fn decimal(v: &Value, path: &str) -> Option<Decimal> {
    match at(v, path)? {
        Value::String(s) => Decimal::from_str(s.trim()).ok(),
        Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
        _ => None,
    }
}

/// An amount rounded to the cent, as EN 16931 states document amounts.
pub(crate) fn amount(v: &Value, path: &str) -> Option<InvoiceAmount> {
    decimal(v, path).and_then(cents)
}

/// A decimal rounded half away from zero to two places.
pub(crate) fn cents(d: Decimal) -> Option<InvoiceAmount> {
    let rounded = d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    InvoiceAmount::from_decimal_exact(rounded).ok()
}

/// A GOBL percentage (`"19%"`, `"19.0%"`) as a per-cent figure.
pub(crate) fn percent(v: &Value, path: &str) -> Option<Percentage> {
    let s = text(v, path)?;
    let n = Decimal::from_str(s.trim().trim_end_matches('%').trim()).ok()?;
    Some(Percentage::new(n.normalize()))
}

/// A quantity.
pub(crate) fn quantity(v: &Value, path: &str) -> Option<Quantity> {
    decimal(v, path).map(Quantity::new)
}

/// An `ext` code of an object (`tax/ext/untdid-document-type`).
pub(crate) fn ext<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get("ext")?.get(key)?.as_str()
}
