//! What the envelope page shows of a GOBL document at a glance: number, parties, dates and
//! totals, read from the stored envelope.

use serde_json::Value;

/// An invoice's headline facts (each absent when the document has none).
#[derive(Debug, Default, PartialEq)]
pub struct Summary {
    /// Series and code, as printed (`SAMPLE-001`).
    pub number: Option<String>,
    /// Supplier's name and tax id.
    pub supplier: Option<String>,
    /// Customer's name and tax id.
    pub customer: Option<String>,
    /// Issue date.
    pub issue_date: Option<String>,
    /// Currency.
    pub currency: Option<String>,
    /// Sum of lines.
    pub sum: Option<String>,
    /// Tax.
    pub tax: Option<String>,
    /// Payable.
    pub payable: Option<String>,
}

fn text(v: &Value, path: &[&str]) -> Option<String> {
    let mut at = v;
    for key in path {
        at = at.get(key)?;
    }
    match at {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn party(doc: &Value, role: &str) -> Option<String> {
    let name = text(doc, &[role, "name"]);
    let tax = text(doc, &[role, "tax_id", "code"])
        .map(|code| text(doc, &[role, "tax_id", "country"]).unwrap_or_default() + &code);
    match (name, tax) {
        (Some(n), Some(t)) => Some(format!("{n} ({t})")),
        (n, t) => n.or(t),
    }
}

impl Summary {
    /// The summary of an envelope (JSON text); empty when it is not readable.
    pub fn of(envelope: &Value) -> Summary {
        let doc = &envelope["doc"];
        let part = |key| text(doc, &[key]).unwrap_or_default();
        let number =
            Some(gobl::bill::series_code(&part("series"), &part("code"))).filter(|n| !n.is_empty());
        Summary {
            number,
            supplier: party(doc, "supplier"),
            customer: party(doc, "customer"),
            issue_date: text(doc, &["issue_date"]),
            currency: text(doc, &["currency"]),
            sum: text(doc, &["totals", "sum"]),
            tax: text(doc, &["totals", "tax"]),
            payable: text(doc, &["totals", "payable"]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invoice_is_summed_up() {
        let env = serde_json::json!({"doc": {
            "series": "SAMPLE", "code": "001", "issue_date": "2024-01-13", "currency": "EUR",
            "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
            "customer": {"name": "Sample Consumer"},
            "totals": {"sum": "1800.00", "tax": "378.00", "payable": "2178.00"}
        }});
        let s = Summary::of(&env);
        assert_eq!(s.number.as_deref(), Some("SAMPLE-001"));
        assert_eq!(
            s.supplier.as_deref(),
            Some("Provide One S.L. (ESB98602642)")
        );
        assert_eq!(s.customer.as_deref(), Some("Sample Consumer"));
        assert_eq!(s.payable.as_deref(), Some("2178.00"));
        assert_eq!(Summary::of(&serde_json::json!({})), Summary::default());
    }
}
