//! Each envelope's headline facts and search text, stored on its row with every version (see
//! `db/envelopes.rs`), so lists and searches read columns instead of documents.
//!
//! The search text is what search matches, as *words*: the key, series and code, and each
//! party's name, tax code and country-prefixed tax code, lowercased, every run of characters
//! other than letters and digits one space. A searched word is made into words the same way
//! ([`words`]) and matches when they appear in that order, the last as a prefix (`ft-101`
//! finds `FT-101` and `FT-1010`; `kunde` finds `Kunde AG`). SQLite's full-text index and
//! PostgreSQL's text search both answer exactly that (see `db/search.rs`).

use gobl::json::Value;

/// What a list row shows of an envelope and what search reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Summary {
    /// Series and code, as printed (`FT-101`).
    pub number: Option<String>,
    /// Supplier's name.
    pub supplier: Option<String>,
    /// Customer's name.
    pub customer: Option<String>,
    /// Currency code.
    pub currency: Option<String>,
    /// Amount payable, as in the document.
    pub payable: Option<String>,
    /// Issue date (`YYYY-MM-DD`).
    pub issue_date: Option<String>,
    /// The searched words, one space apart.
    pub search_text: String,
}

impl Summary {
    /// The summary of an envelope with this key and document.
    pub(crate) fn of(key: Option<&str>, doc: &Value) -> Summary {
        let at = |path: &[&str]| text(doc, path);
        let (series, code) = (at(&["series"]), at(&["code"]));
        let number = gobl::bill::series_code(
            series.as_deref().unwrap_or_default(),
            code.as_deref().unwrap_or_default(),
        );
        let mut searched: Vec<String> = vec![key.unwrap_or_default().to_owned()];
        searched.extend([series, code].into_iter().flatten());
        for role in ["supplier", "customer"] {
            searched.extend(at(&[role, "name"]));
            if let Some(tax) = at(&[role, "tax_id", "code"]) {
                let country = at(&[role, "tax_id", "country"]).unwrap_or_default();
                searched.push(format!("{tax} {country}{tax}"));
            }
        }
        Summary {
            number: Some(number).filter(|n| !n.is_empty()),
            supplier: at(&["supplier", "name"]),
            customer: at(&["customer", "name"]),
            currency: at(&["currency"]),
            payable: at(&["totals", "payable"]),
            issue_date: at(&["issue_date"]),
            search_text: words(&searched.join(" ")).join(" "),
        }
    }
}

/// A text as search sees it: its lowercase runs of letters and digits.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A string or number member at `path`, when not empty.
fn text(doc: &Value, path: &[&str]) -> Option<String> {
    let mut at = doc;
    for key in path {
        at = at.get(key)?;
    }
    match at {
        Value::String(s) | Value::Number(s) if !s.is_empty() => Some(s.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_invoice_is_summed_up_and_its_words_are_searched() {
        let doc = Value::from(json!({
            "series": "FT/2024", "code": "0101", "issue_date": "2024-01-13", "currency": "EUR",
            "supplier": {"name": "Müller & Söhne GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
            "customer": {"name": "ÄRZTE-Kammer"},
            "totals": {"payable": "2178.00"}
        }));
        let s = Summary::of(Some("Key_1"), &doc);
        assert_eq!(s.number.as_deref(), Some("FT/2024-0101"));
        assert_eq!(s.supplier.as_deref(), Some("Müller & Söhne GmbH"));
        assert_eq!(s.customer.as_deref(), Some("ÄRZTE-Kammer"));
        assert_eq!(s.payable.as_deref(), Some("2178.00"));
        assert_eq!(s.issue_date.as_deref(), Some("2024-01-13"));
        assert_eq!(
            s.search_text,
            "key 1 ft 2024 0101 müller söhne gmbh 111111125 de111111125 ärzte kammer"
        );
    }

    #[test]
    fn a_document_without_facts_has_none() {
        let s = Summary::of(None, &Value::from(json!({"title": "note"})));
        assert_eq!(s, Summary::default());
        assert_eq!(words(" -- A-3 / x"), ["a", "3", "x"]);
    }
}
