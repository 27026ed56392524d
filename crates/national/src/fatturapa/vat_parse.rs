//! VAT rates and natures as the general data, the lines and the summary read them; a file of
//! its own so those `_parse` files share it instead of importing each other.

use gobl::num::Amount;
use serde_json::{Value, json};

use super::import_error::ImportError;
use super::tree::Node;
use super::values::percent;

/// The VAT combo of an element with `AliquotaIVA` and `Natura`: an exemption nature
/// rather than a zero rate.
pub(crate) fn vat_combo(n: &Node) -> Result<Option<Value>, ImportError> {
    let rate = percent(n, "AliquotaIVA")?;
    if let Some(nature) = n.text("Natura") {
        return Ok(Some(
            json!({ "cat": "VAT", "ext": { "it-sdi-exempt": nature } }),
        ));
    }
    Ok(rate.map(|r| json!({ "cat": "VAT", "percent": r.to_string() })))
}

/// Rates compared as numbers (`22.00` and `22.0` are one rate).
pub(crate) fn same_rate(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => match (Amount::parse(a), Amount::parse(b)) {
            (Ok(x), Ok(y)) => x.equals(&y),
            _ => a == b,
        },
        _ => false,
    }
}
