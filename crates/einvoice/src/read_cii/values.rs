//! Values as the crate's CII reader takes them: text trimmed, blank as absent; figures parsed
//! by the model's own parsers. Where the crate would report a value (a malformed amount, a
//! date in another format) or drop it silently (a rate that is not a number), the fast path
//! gives up instead.

use en16931::invoice::Code;
use en16931::{Date, Identifier, InvoiceAmount, Percentage, Quantity, UnitPriceAmount};
use rust_decimal::Decimal;

use super::xml::{Doc, Elem, Leaf, R, Stop};

/// Trimmed text, `None` when blank.
pub(super) fn trimmed(raw: &str) -> Option<String> {
    let t = raw.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// Trimmed text, empty when blank.
pub(super) fn own(raw: &str) -> String {
    raw.trim().to_owned()
}

/// A leaf's trimmed text, `None` when it is absent or blank.
pub(super) fn text(leaf: Option<&Leaf<'_>>) -> Option<String> {
    leaf.and_then(|l| trimmed(&l.text))
}

/// A code from a leaf, `None` when absent or blank.
pub(super) fn code(leaf: Option<&Leaf<'_>>) -> Option<Code> {
    text(leaf).map(Code::new)
}

/// An identifier with its `schemeID` (else `listID`) as its scheme.
pub(super) fn identifier(leaf: &Leaf<'_>) -> Identifier {
    let content = own(&leaf.text);
    match leaf
        .attrs
        .get("schemeID")
        .or_else(|| leaf.attrs.get("listID"))
    {
        Some(scheme) => Identifier::schemed(content, scheme),
        None => Identifier::new(content),
    }
}

/// An amount; absent when blank, refused when the model cannot hold it.
pub(super) fn amount(raw: &str) -> R<Option<InvoiceAmount>> {
    match raw.trim() {
        "" => Ok(None),
        t => InvoiceAmount::parse(t).map(Some).map_err(|_| Stop),
    }
}

/// A leaf's amount.
pub(super) fn leaf_amount(leaf: Option<&Leaf<'_>>) -> R<Option<InvoiceAmount>> {
    leaf.map_or(Ok(None), |l| amount(&l.text))
}

/// A decimal; absent when blank, refused when it does not parse.
pub(super) fn decimal(raw: &str) -> R<Option<Decimal>> {
    match raw.trim() {
        "" => Ok(None),
        t => t.parse().map(Some).map_err(|_| Stop),
    }
}

/// A leaf's decimal.
pub(super) fn leaf_decimal(leaf: Option<&Leaf<'_>>) -> R<Option<Decimal>> {
    leaf.map_or(Ok(None), |l| decimal(&l.text))
}

/// A percentage as written (`19` is 19 %), through the fraction as the crate takes it.
pub(super) fn percent(leaf: Option<&Leaf<'_>>) -> R<Option<Percentage>> {
    let Some(d) = leaf_decimal(leaf)? else {
        return Ok(None);
    };
    let fraction = d.checked_div(Decimal::ONE_HUNDRED).ok_or(Stop)?;
    Percentage::from_fraction(fraction).map(Some).ok_or(Stop)
}

/// A unit price.
pub(super) fn unit_price(leaf: Option<&Leaf<'_>>) -> R<Option<UnitPriceAmount>> {
    Ok(leaf_decimal(leaf)?.map(UnitPriceAmount::new))
}

/// A quantity.
pub(super) fn quantity(leaf: Option<&Leaf<'_>>) -> R<Option<Quantity>> {
    Ok(leaf_decimal(leaf)?.map(Quantity::new))
}

/// `udt:Indicator`: `true` is a charge; anything but the four boolean forms is refused.
pub(super) fn indicator(raw: &str) -> R<bool> {
    match raw.trim() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Stop),
    }
}

/// A date wrapper (`ram:IssueDateTime`) holding `inner` (`udt:DateTimeString`, or
/// `udt:DateString` for BT-7) in format 102 (`CCYYMMDD`); `None` when it holds nothing.
pub(super) fn date<'a>(doc: &mut Doc<'a>, wrapper: &Elem<'a>, inner: &str) -> R<Option<Date>> {
    let [value] = doc.leaves(wrapper, [inner])?;
    let Some(value) = value else {
        return Ok(None);
    };
    if !matches!(value.attrs.get("format"), None | Some("102")) {
        return Err(Stop);
    }
    let raw = value.text.trim();
    let (Some(y), Some(m), Some(d)) = (raw.get(0..4), raw.get(4..6), raw.get(6..8)) else {
        return Err(Stop);
    };
    if raw.len() != 8 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Stop);
    }
    Date::parse(&format!("{y}-{m}-{d}"))
        .map(Some)
        .map_err(|_| Stop)
}

/// BT-8 from CII's UNTDID 2475 to the model's UNTDID 2005; another value is refused.
pub(super) fn vat_point_date_code(raw: &str) -> R<Code> {
    let model = match raw {
        "5" => "3",
        "29" => "35",
        "72" => "432",
        _ => return Err(Stop),
    };
    Ok(Code::new(model))
}
