//! `ScontoMaggiorazione`, read the same way for the document (general data) and for each
//! line; a file of its own so `general_parse` and `lines_parse` do not import each other.

use serde_json::{Map, Value};

use super::import_error::ImportError;
use super::json_put::put;
use super::tree::Node;
use super::values::{amount, percent, required};

/// `ScontoMaggiorazione`: a discount (`SC`) or charge (`MG`) by percentage and/or
/// amount; an amount per unit is multiplied by `quantity` (line adjustments).
pub(crate) fn adjustment(
    a: &Node,
    quantity: Option<gobl::num::Amount>,
) -> Result<Option<(String, Value)>, ImportError> {
    let kind = required(a, "Tipo")?.to_string();
    if kind != "SC" && kind != "MG" {
        return Ok(None);
    }
    let pct = percent(a, "Percentuale")?.filter(|p| !p.is_zero());
    let mut amt = amount(a, "Importo")?;
    if let (Some(a), Some(q)) = (amt, quantity) {
        amt = Some(a.mul(q).map_err(|_| ImportError::Invalid {
            path: "ScontoMaggiorazione/Importo".into(),
            value: a.to_string(),
            what: "amount per unit",
        })?);
    }
    if pct.is_none() && amt.is_none() {
        return Ok(None);
    }
    let mut out = Map::new();
    put(&mut out, "percent", pct.map(|p| p.to_string()));
    put(
        &mut out,
        "amount",
        Some(amt.unwrap_or_default().to_string()),
    );
    Ok(Some((kind, Value::Object(out))))
}
