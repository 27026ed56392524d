//! BG-25 invoice lines from GOBL lines: quantity, unit, price, line discounts and charges,
//! the line's VAT category and rate.

use en16931::invoice::{Code, Item, LineAllowanceCharge, LineVat, PriceDetails};
use en16931::{Identifier, InvoiceLine, UnitPriceAmount};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::gobl_doc::{amount, decimal, ext, list, percent, quantity, string, text};

/// Every line of the document.
pub(crate) fn write(doc: &Value) -> Vec<InvoiceLine> {
    list(doc, "lines")
        .iter()
        .enumerate()
        .map(|(n, l)| line(n, l))
        .collect()
}

fn line(n: usize, l: &Value) -> InvoiceLine {
    let id = l
        .get("i")
        .map(|i| match i {
            // as the JSON text has it, without a string's quotes
            Value::Number(n) => n.to_string(),
            other => other.to_string().trim_matches('"').to_string(),
        })
        .unwrap_or_else(|| (n + 1).to_string());
    let vat = vat(l);
    let mut line = InvoiceLine::new(
        id,
        "",
        quantity(l, "quantity").unwrap_or(en16931::Quantity::ONE),
        Code::new(unit_code(text(l, "item/unit"))),
        amount(l, "total")
            .or_else(|| amount(l, "sum"))
            .unwrap_or_default(),
        vat.category.clone(),
        vat.rate,
    );
    line.price = PriceDetails {
        net_price: UnitPriceAmount::new(decimal(l, "item/price").unwrap_or(Decimal::ZERO)),
        ..PriceDetails::default()
    };
    line.vat = vat;
    line.item = item(l);
    line.note = list(l, "notes")
        .first()
        .and_then(|n| string(n, "text"))
        .or_else(|| string(l, "notes/0/text"));
    line.allowances = list(l, "discounts")
        .iter()
        .map(|d| allowance_charge(d, l, "untdid-allowance"))
        .collect();
    line.charges = list(l, "charges")
        .iter()
        .map(|c| allowance_charge(c, l, "untdid-charge"))
        .collect();
    line
}

/// The line's VAT entry: category from the add-on's `untdid-tax-category`, rate from its
/// percentage.
fn vat(l: &Value) -> LineVat {
    let vat = list(l, "taxes")
        .iter()
        .find(|t| text(t, "cat") == Some("VAT"));
    match vat {
        Some(t) => {
            let category = crate::taxes::category(t);
            LineVat {
                category: Code::new(category),
                rate: crate::taxes::rate(category, percent(t, "percent")),
            }
        }
        None => LineVat {
            category: Code::new("O"),
            rate: None,
        },
    }
}

fn item(l: &Value) -> Item {
    let i = l.get("item").unwrap_or(&Value::Null);
    Item {
        name: string(i, "name"),
        description: string(i, "description"),
        seller_identifier: string(i, "ref"),
        standard_identifier: list(i, "identities").iter().find_map(|id| {
            let code = string(id, "code")?;
            Some(match ext(id, "iso-scheme-id") {
                Some(s) => Identifier::schemed(code, s),
                None => Identifier::new(code),
            })
        }),
        origin_country: text(i, "origin").map(Code::new),
        ..Item::default()
    }
}

/// A line discount or charge (BG-27 / BG-28).
fn allowance_charge(d: &Value, line: &Value, reason_ext: &str) -> LineAllowanceCharge {
    let percentage = percent(d, "percent");
    // Peppol R041: a percentage needs its base; GOBL's default base is the line sum
    let base = amount(d, "base").or_else(|| percentage.and_then(|_| amount(line, "sum")));
    LineAllowanceCharge {
        amount: amount(d, "amount").unwrap_or_default(),
        base_amount: base,
        percentage,
        reason: string(d, "reason"),
        reason_code: ext(d, reason_ext).map(Code::new),
    }
}

/// The UN/ECE Recommendation 20 code for a GOBL unit (`h` → `HUR`); UN/ECE codes pass as
/// they are, and no unit is "one" (`C62`).
pub(crate) fn unit_code(unit: Option<&str>) -> String {
    let Some(unit) = unit else {
        return "C62".into();
    };
    let known = UNITS.iter().find(|(gobl, _)| *gobl == unit);
    match known {
        Some((_, code)) => (*code).to_string(),
        None if unit.len() <= 3
            && unit
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) =>
        {
            unit.to_string()
        }
        None => "C62".into(),
    }
}

/// The GOBL unit for a UN/ECE Recommendation 20 code: GOBL's key where it has one, else the
/// code itself (GOBL accepts UN/ECE codes as units), so that the code is written back as it
/// was (`EA` stays `EA`, not GOBL's `item`, which is `H87`).
pub(crate) fn gobl_unit(code: &str) -> String {
    UNITS
        .iter()
        .find(|(_, c)| *c == code)
        .map(|(gobl, _)| (*gobl).to_string())
        .unwrap_or_else(|| code.to_string())
}

/// GOBL unit keys and their UN/ECE Recommendation 20 codes.
const UNITS: &[(&str, &str)] = &[
    ("one", "C62"),
    ("item", "H87"),
    ("piece", "H87"),
    ("unit", "C62"),
    ("service", "E48"),
    ("set", "SET"),
    ("pair", "PR"),
    ("box", "XBX"),
    ("pallet", "XPX"),
    ("package", "XPK"),
    ("s", "SEC"),
    ("min", "MIN"),
    ("h", "HUR"),
    ("day", "DAY"),
    ("week", "WEE"),
    ("month", "MON"),
    ("year", "ANN"),
    ("g", "GRM"),
    ("kg", "KGM"),
    ("t", "TNE"),
    ("mm", "MMT"),
    ("cm", "CMT"),
    ("m", "MTR"),
    ("km", "KMT"),
    ("m2", "MTK"),
    ("m3", "MTQ"),
    ("ml", "MLT"),
    ("l", "LTR"),
    ("kwh", "KWH"),
    ("percent", "P1"),
];
