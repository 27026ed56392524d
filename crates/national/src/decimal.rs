//! Decimals as the national schemas write them, whatever the format calls them: amounts
//! with exactly two decimals, with two to eight, and figures without trailing zeros.

use gobl::num::Amount;

/// Exactly two decimals (FatturaPA `Amount2DecimalType`, FA(3) `TKwotowy`, Facturae
/// `DoubleTwoDecimalType`).
pub(crate) fn two(a: Amount) -> String {
    a.rescale(2).unwrap_or(a).to_string()
}

/// Two to eight decimals: never fewer than two, more rounded away (FatturaPA
/// `Amount8DecimalType`, FA(3) `TKwotowy2`).
pub(crate) fn two_to_eight(a: Amount) -> String {
    let a = a.rescale_up(2).unwrap_or(a);
    a.rescale_down(8).unwrap_or(a).to_string()
}

/// A decimal figure without trailing decimal zeros (`200.00` → `200`, `10.50` → `10.5`).
pub(crate) fn without_trailing_zeros(s: String) -> String {
    if !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
