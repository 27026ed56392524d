//! The view: everything the template prints, already worded and formatted for the locale, so
//! a template (folio's or an operator's) only lays out text. Built from a GOBL envelope or a
//! bare invoice; absent optional fields are simply absent.

mod lines;
mod parties;
mod payment;
mod totals;

use serde_json::{Value, json};

use crate::format::Style;
use crate::{Error, Options, labels};

/// What the view is built with: the document, its style and language.
pub(crate) struct Cx<'a> {
    pub doc: &'a Value,
    pub style: Style,
    pub locale: &'a str,
    pub currency: String,
}

impl Cx<'_> {
    /// A text field of a JSON value ("" when absent).
    pub fn text<'v>(v: &'v Value, key: &str) -> &'v str {
        v.get(key).and_then(Value::as_str).unwrap_or("")
    }

    /// An amount in the document's currency.
    pub fn amount(&self, text: &str) -> String {
        self.style.amount(text, &self.currency)
    }

    /// A label in the document's language.
    pub fn label(&self, key: &str) -> String {
        labels::get(self.locale, key)
    }
}

/// The list under `key`, or none.
pub(crate) fn list<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// The view of a GOBL envelope or invoice.
pub fn build(input: &Value, opts: &Options) -> Result<Value, Error> {
    let is_envelope = input.get("doc").is_some() && input.get("head").is_some();
    let doc = if is_envelope { &input["doc"] } else { input };
    let schema = Cx::text(doc, "$schema");
    if !schema.ends_with("/bill/invoice") {
        return Err(Error::NotInvoice(if schema.is_empty() {
            "(none)".into()
        } else {
            schema.into()
        }));
    }
    let cx = Cx {
        doc,
        style: style(opts),
        locale: opts.locale(),
        currency: Cx::text(doc, "currency").to_string(),
    };
    let mut view = json!({
        "lang": labels::LOCALES[labels::column(cx.locale)],
        "paper": opts.layout.paper(),
        "din5008": opts.layout.is_din5008(),
        "labels": labels::all(cx.locale),
        "title": title(&cx, opts),
        "number": number(doc),
        "dates": dates(&cx),
        "preceding": preceding(&cx),
        "supplier": parties::party(&cx, doc.get("supplier")),
        "customer": parties::party(&cx, doc.get("customer")),
        "lines": lines::lines(&cx),
        "has_discounts": list(doc, "lines").iter().any(|l| !list(l, "discounts").is_empty()),
        "taxes": totals::breakdown(&cx),
        "totals": totals::totals(&cx),
        "payment": payment::payment(&cx),
        "notes": notes(doc),
        "watermark": opts.watermark.clone(),
        "duplicate": opts.duplicate.then(|| cx.label("duplicate")),
        "logo_height": opts.logo_height.unwrap_or(40.0),
    });
    view["footer"] = footer(&cx, input, is_envelope);
    Ok(view)
}

fn style(opts: &Options) -> Style {
    let mut style = Style::of(opts.locale());
    if let Some(f) = opts.date_format.as_ref().filter(|f| !f.is_empty()) {
        style.date = f.clone();
    }
    if let Some(m) = &opts.decimal_mark {
        style.decimal = m.clone();
    }
    if let Some(t) = &opts.thousands_separator {
        style.thousands = t.clone();
    }
    style
}

fn title(cx: &Cx, opts: &Options) -> String {
    if let Some(label) = opts.label.as_ref().filter(|l| !l.is_empty()) {
        return label.clone();
    }
    match Cx::text(cx.doc, "type") {
        "credit-note" => cx.label("credit-note"),
        "corrective" => cx.label("corrective"),
        "debit-note" => cx.label("debit-note"),
        "proforma" => cx.label("proforma"),
        _ => cx.label("invoice"),
    }
}

/// The series-code of a GOBL document (or preceding reference), as GOBL joins them.
pub fn number(doc: &Value) -> String {
    match (Cx::text(doc, "series"), Cx::text(doc, "code")) {
        ("", code) => code.to_string(),
        (series, "") => series.to_string(),
        (series, code) => format!("{series}-{code}"),
    }
}

/// The dates the document states, each with its label.
fn dates(cx: &Cx) -> Value {
    let mut out = vec![json!([
        cx.label("issue-date"),
        cx.style.date(Cx::text(cx.doc, "issue_date"))
    ])];
    let op = Cx::text(cx.doc, "op_date");
    if !op.is_empty() {
        out.push(json!([cx.label("op-date"), cx.style.date(op)]));
    }
    let due = cx
        .doc
        .get("payment")
        .and_then(|p| p.get("terms"))
        .map(|t| list(t, "due_dates"))
        .and_then(|d| d.first())
        .map(|d| Cx::text(d, "date"))
        .unwrap_or("");
    if !due.is_empty() {
        out.push(json!([cx.label("due-date"), cx.style.date(due)]));
    }
    Value::Array(out)
}

/// The documents a credit note or corrective invoice corrects.
fn preceding(cx: &Cx) -> Value {
    list(cx.doc, "preceding")
        .iter()
        .map(|p| {
            let date = cx.style.date(Cx::text(p, "issue_date"));
            json!(format!("{} {} ({date})", cx.label("preceding"), number(p)))
        })
        .collect()
}

fn notes(doc: &Value) -> Value {
    list(doc, "notes")
        .iter()
        .map(|n| json!(Cx::text(n, "text")))
        .filter(|t| t.as_str().is_some_and(|t| !t.is_empty()))
        .collect()
}

/// The GOBL digest and whether the envelope is signed.
fn footer(cx: &Cx, input: &Value, is_envelope: bool) -> Value {
    let digest = if is_envelope {
        input["head"]["dig"]["val"]
            .as_str()
            .unwrap_or("")
            .to_string()
    } else {
        String::new()
    };
    let signed = input
        .get("sigs")
        .and_then(Value::as_array)
        .is_some_and(|s| !s.is_empty());
    json!({
        "digest": digest,
        "signature": cx.label(if signed { "signed" } else { "not-signed" }),
    })
}
