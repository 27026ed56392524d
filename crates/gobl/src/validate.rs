//! Validation of calculated documents: faults with a code, a message and a path in the
//! document (`doc.supplier.tax_id.code`).

use std::fmt::Display;

use crate::json::map::same_members;
use crate::json::{Map, Value};

use crate::bill::val::{field, get};
use crate::fault::{Fault, Faults, Path};

/// Validate a calculated document: the core rules of its schema and the tax-id checks of
/// folio's regimes. An empty list means the document is valid.
pub fn validate_document(doc: &Map) -> Faults {
    let mut v = Validator {
        faults: Vec::new(),
        ext_faults: Vec::new(),
        ext_defs: crate::addons::ExtDefs::default(),
    };
    let schema = get(doc, "$schema").and_then(Value::as_str).unwrap_or("");
    let short = crate::bill::schema_path(schema);
    // One walk finds the tax ids and, in an invoice, the extension codes of its add-ons.
    v.tax_ids_in(&Path::Root("doc"), doc, short == "bill/invoice");
    match short {
        "bill/invoice" => {
            v.invoice(doc);
            v.regime(doc);
            let ext_faults = std::mem::take(&mut v.ext_faults);
            crate::addons::validate_invoice(doc, ext_faults, &mut v.faults);
        }
        "bill/payment" | "bill/delivery" | "bill/order" | "bill/status" => {
            v.required(
                doc,
                "doc",
                "issue_date",
                "bill-01",
                "issue date is required",
            );
            v.party(doc, "supplier", true);
        }
        _ => {}
    }
    Faults(v.faults)
}

/// A `$regime` folio has no regime for, as a fault naming it.
fn unknown_regime(doc: &Map) -> Option<Fault> {
    let cc = get(doc, "$regime").and_then(Value::as_str)?;
    crate::regimes::get(cc).is_none().then(|| {
        Fault::at(
            "doc.$regime",
            "regime-unknown",
            format!("regime '{cc}' is not defined"),
        )
    })
}

/// The keys a document names that folio does not know (`$regime`, `$addons`): said first when
/// the document cannot be calculated, since they are usually why.
pub(crate) fn unknown_keys(doc: &Map) -> Vec<Fault> {
    let mut faults: Vec<Fault> = unknown_regime(doc).into_iter().collect();
    crate::addons::unknown(doc, &mut faults);
    faults
}

struct Validator {
    faults: Vec<Fault>,
    /// The faults of extension codes outside their lists, said after the core rules'.
    ext_faults: Vec<Fault>,
    ext_defs: crate::addons::ExtDefs,
}

#[inline]
fn present(o: &Map, k: &str) -> bool {
    get(o, k).is_some_and(filled)
}

/// Whether a member's value says something: not null nor empty.
fn filled(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => true,
    }
}

/// What a line's checks read of it and of its item, found in one pass over each (a line is
/// checked for several members, most of them there).
#[derive(Default)]
struct LineMembers<'a> {
    quantity: bool,
    sum: bool,
    total: bool,
    item: Option<&'a Map>,
    price: bool,
    name: bool,
}

impl<'a> LineMembers<'a> {
    fn of(line: &'a Map) -> Self {
        let mut m = LineMembers::default();
        for (k, v) in line {
            match k.as_str() {
                "quantity" => m.quantity = filled(v),
                "sum" => m.sum = filled(v),
                "total" => m.total = filled(v),
                "item" => m.item = v.as_object(),
                _ => {}
            }
        }
        for (k, v) in m.item.into_iter().flatten() {
            match k.as_str() {
                "price" => m.price = filled(v),
                "name" => m.name = filled(v),
                _ => {}
            }
        }
        m
    }
}

impl Validator {
    fn push(&mut self, path: impl Display, code: &str, message: &str) {
        self.faults.push(Fault::at(path.to_string(), code, message));
    }

    fn required(&mut self, o: &Map, base: impl Display, k: &str, code: &str, msg: &str) {
        if !present(o, k) {
            self.push(format!("{base}.{k}"), code, msg);
        }
    }

    fn party(&mut self, doc: &Map, key: &str, needed: bool) {
        match get(doc, key).and_then(Value::as_object) {
            Some(p) => self.required(
                p,
                format_args!("doc.{key}"),
                "name",
                "bill-party-01",
                "name is required",
            ),
            None if needed => self.push(
                format_args!("doc.{key}"),
                "bill-party-00",
                "party is required",
            ),
            None => {}
        }
    }

    /// Every `tax_id` under `v`: known country, valid code for folio's regimes; with `ext`,
    /// every `ext` map too (see [`crate::addons::check_ext_map`]): those of the members of
    /// objects and of the objects of arrays, not those inside an `ext` map or an array's
    /// arrays.
    fn tax_ids(&mut self, path: &Path, v: &Value, ext: bool) {
        match v {
            Value::Object(o) => self.tax_ids_in(path, o, ext),
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    self.tax_ids(&path.item(i), x, ext && x.is_object());
                }
            }
            _ => {}
        }
    }

    /// [`Self::tax_ids`] of an object (the document itself is walked in place, not copied).
    fn tax_ids_in(&mut self, path: &Path, o: &Map, ext: bool) {
        for (k, x) in o {
            // a tax id is an object, and only objects and arrays hold one
            if !(x.is_object() || x.is_array()) {
                continue;
            }
            let p = path.member(k);
            if k == "tax_id"
                && let Some(t) = x.as_object()
            {
                self.tax_id(&p, t);
            }
            let ext_map = if ext && k == "ext" {
                x.as_object()
            } else {
                None
            };
            if let Some(m) = ext_map {
                crate::addons::check_ext_map(&p, m, &mut self.ext_defs, &mut self.ext_faults);
            }
            self.tax_ids(&p, x, ext && ext_map.is_none());
        }
    }

    /// `$regime`, when given, must be a known regime; its own rules apply.
    fn regime(&mut self, doc: &Map) {
        let Some(cc) = get(doc, "$regime").and_then(Value::as_str) else {
            return;
        };
        match crate::regimes::get(cc) {
            None => self.faults.extend(unknown_regime(doc)),
            Some(r) => {
                if let Some(f) = r.hooks.validate {
                    f(doc, &mut self.faults);
                }
            }
        }
    }

    /// One `tax_id` at `p`.
    fn tax_id(&mut self, p: &Path, t: &Map) {
        let country = get(t, "country").and_then(Value::as_str).unwrap_or("");
        let code = get(t, "code").and_then(Value::as_str).unwrap_or("");
        if country.is_empty() {
            self.push(p.member("country"), "tax-id-01", "country is required");
        } else if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_uppercase()) {
            self.push(
                p.member("country"),
                "tax-id-02",
                "country must be an ISO code",
            );
        }
        if let Err(e) = crate::regimes::taxid::check(country, code) {
            self.push(p.member("code"), "tax-id-code", &e);
        }
    }

    /// The core rules of an invoice (GOBL's `bill-invoice-*`, `bill-line-*` and
    /// `bill-discount-*`), in GOBL's order.
    fn invoice(&mut self, doc: &Map) {
        self.invoice_type(doc);
        self.invoice_issue_date(doc);
        self.invoice_currency(doc);
        self.invoice_parties(doc);
        self.invoice_value_date(doc);
        let bypass = get(doc, "$tags")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|t| t == "bypass"));
        let lines = Path::Root("doc.lines");
        let mut seen = Vec::new();
        for (i, l) in get(doc, "lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            self.invoice_line(doc, &lines.item(i), l, bypass, &mut seen);
        }
        for (k, list) in [
            (Path::Root("doc.discounts"), "discounts"),
            (Path::Root("doc.charges"), "charges"),
        ] {
            for (i, d) in get(doc, list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                self.invoice_adjustment(doc, &k.item(i), d, &mut seen);
            }
        }
        self.invoice_lines_and_totals(doc, bypass);
    }

    /// `type`: present and one of GOBL's invoice types.
    fn invoice_type(&mut self, doc: &Map) {
        const TYPES: &[&str] = &[
            "standard",
            "proforma",
            "corrective",
            "credit-note",
            "debit-note",
            "other",
        ];
        match get(doc, "type").and_then(Value::as_str) {
            None | Some("") => self.push("doc.type", "bill-invoice-01", "invoice type is required"),
            Some(t) if !TYPES.contains(&t) => {
                self.push("doc.type", "bill-invoice-02", "invoice type is not valid")
            }
            _ => {}
        }
    }

    /// `issue_date`: present and a valid date.
    fn invoice_issue_date(&mut self, doc: &Map) {
        self.required(
            doc,
            "doc",
            "issue_date",
            "bill-invoice-03",
            "invoice issue date is required",
        );
        if let Some(d) = get(doc, "issue_date").and_then(Value::as_str)
            && crate::tax::defs::date_num(d).is_none()
        {
            self.push(
                "doc.issue_date",
                "bill-invoice-03",
                "invoice issue date is not a valid date",
            );
        }
    }

    /// `currency`: present and a known currency.
    fn invoice_currency(&mut self, doc: &Map) {
        match get(doc, "currency").and_then(Value::as_str) {
            None | Some("") => self.push(
                "doc.currency",
                "bill-invoice-04",
                "invoice currency is required",
            ),
            Some(c) if !crate::currency::is_known(c) => self.push(
                "doc.currency",
                "bill-invoice-04",
                "invoice currency is not valid",
            ),
            _ => {}
        }
    }

    /// A supplier with a name; a customer with a tax-id code needs a name too.
    fn invoice_parties(&mut self, doc: &Map) {
        match get(doc, "supplier").and_then(Value::as_object) {
            None => self.push(
                "doc.supplier",
                "bill-invoice-05",
                "invoice supplier is required",
            ),
            Some(s) => self.required(
                s,
                "doc.supplier",
                "name",
                "bill-invoice-06",
                "invoice supplier name is required",
            ),
        }
        if let Some(c) = get(doc, "customer").and_then(Value::as_object) {
            let has_code = get(c, "tax_id")
                .and_then(|t| field(t, "code"))
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty());
            if has_code {
                self.required(
                    c,
                    "doc.customer",
                    "name",
                    "bill-invoice-07",
                    "invoice customer name required when tax ID is set",
                );
            }
        }
    }

    /// `value_date` and `tax.point` exclude each other.
    fn invoice_value_date(&mut self, doc: &Map) {
        let has_tax_point = get(doc, "tax")
            .and_then(|t| field(t, "point"))
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if has_tax_point && present(doc, "value_date") {
            self.push(
                "doc.value_date",
                "bill-invoice-11",
                "value date cannot be set when tax point is set",
            );
        }
    }

    /// One line at `base`: an object with a quantity, an item, its amounts (unless the
    /// invoice is `bypass`) and valid tax combos.
    fn invoice_line<'a>(
        &mut self,
        doc: &Map,
        base: &Path,
        l: &'a Value,
        bypass: bool,
        seen: &mut Vec<&'a Map>,
    ) {
        let Some(lo) = l.as_object() else {
            self.push(base, "bill-line-00", "line must be an object");
            return;
        };
        let m = LineMembers::of(lo);
        if !m.quantity {
            self.push(
                base.member("quantity"),
                "bill-line-02",
                "quantity is required",
            );
        }
        match m.item {
            None => self.push(base.member("item"), "bill-line-03", "item is required"),
            Some(_) => self.line_item(base, &m, bypass),
        }
        self.combos(doc, base, lo, seen);
    }

    /// A line's item: price and name; a priced item needs the line's sum and total (the
    /// calculation writes them, unless the invoice is `bypass`).
    fn line_item(&mut self, base: &Path, m: &LineMembers, bypass: bool) {
        let item = base.member("item");
        if !m.price {
            let msg = "invoice line item price is required";
            self.push(item.member("price"), "bill-invoice-08", msg);
        }
        if !m.name {
            self.push(item.member("name"), "org-item-01", "item name is required");
        }
        if !bypass && m.price {
            if !m.sum {
                let msg = "sum is required when item has a price";
                self.push(base.member("sum"), "bill-line-04", msg);
            }
            if !m.total {
                let msg = "total is required when item has a price";
                self.push(base.member("total"), "bill-line-05", msg);
            }
        }
    }

    /// A document discount or charge at `base`: a base needs a percent; valid tax combos.
    fn invoice_adjustment<'a>(
        &mut self,
        doc: &Map,
        base: &Path,
        d: &'a Value,
        seen: &mut Vec<&'a Map>,
    ) {
        let Some(o) = d.as_object() else { return };
        if present(o, "base") && !present(o, "percent") {
            self.push(
                base.member("percent"),
                "bill-discount-01",
                "percent is required when base is set",
            );
        }
        self.combos(doc, base, o, seen);
    }

    /// Lines, unless there are discounts or charges; totals, unless the invoice is `bypass`.
    fn invoice_lines_and_totals(&mut self, doc: &Map, bypass: bool) {
        let has_adjustments = present(doc, "discounts") || present(doc, "charges");
        if !has_adjustments && !present(doc, "lines") {
            self.push(
                "doc.lines",
                "bill-invoice-10",
                "invoice lines are required without discounts or charges",
            );
        }
        if !bypass && !present(doc, "totals") {
            self.push(
                "doc.totals",
                "bill-invoice-09",
                "invoice totals are required",
            );
        }
    }

    /// The `taxes` of the line, discount or charge `o` at `base`. A combo equal to one
    /// `seen` without a fault has none either (its rules read only its own members and the
    /// document's `$regime`), so the lines' few distinct combos are checked once each.
    fn combos<'a>(&mut self, doc: &Map, base: &Path, o: &'a Map, seen: &mut Vec<&'a Map>) {
        let taxes = base.member("taxes");
        for (j, t) in get(o, "taxes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(c) = t.as_object() else { continue };
            if seen.iter().any(|s| same_members(s, c)) {
                continue;
            }
            let before = self.faults.len();
            self.combo(doc, &taxes.item(j), c);
            if self.faults.len() == before {
                seen.push(c);
            }
        }
    }

    /// A tax combo against the regime (of its country, else the document's).
    fn combo(&mut self, doc: &Map, path: &Path, o: &Map) {
        let country = get(o, "country")
            .and_then(Value::as_str)
            .or_else(|| get(doc, "$regime").and_then(Value::as_str))
            .unwrap_or("");
        let Some(r) = crate::regimes::get(country) else {
            return;
        };
        let cat = get(o, "cat").and_then(Value::as_str).unwrap_or("");
        let Some(cd) = r.category(cat) else {
            self.push(
                path.member("cat"),
                "tax-combo-01",
                "tax category not valid for regime",
            );
            return;
        };
        let key = get(o, "key").and_then(Value::as_str).unwrap_or("");
        let kd = cd.key(key);
        if !key.is_empty() && kd.is_none() {
            self.push(
                path.member("key"),
                "tax-combo-02",
                "tax combo key not valid for category in regime",
            );
        }
        if let Some(rate) = get(o, "rate").and_then(Value::as_str)
            && cd.rate(key, rate).is_none()
        {
            self.push(
                path.member("rate"),
                "tax-combo-03",
                "tax combo rate not valid for key in regime",
            );
        }
        let has_percent = present(o, "percent");
        let percent_ok = match (key.is_empty(), kd) {
            (true, _) => has_percent,
            (false, None) => true,
            (false, Some(k)) if k.no_percent => !has_percent,
            (false, Some(_)) => has_percent,
        };
        if !percent_ok {
            self.push(
                path.member("percent"),
                "tax-combo-04",
                "tax combo percent required or invalid for key in regime",
            );
        }
        if present(o, "surcharge") && !has_percent {
            self.push(
                path.member("surcharge"),
                "tax-combo-05",
                "tax combo surcharge requires percent in regime",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn faults(v: Value) -> Vec<(String, String)> {
        validate_document(v.as_object().unwrap())
            .0
            .into_iter()
            .map(|f| (f.paths[0].clone(), f.code))
            .collect()
    }

    #[test]
    fn invoice_core_rules() {
        let f = faults(
            json!({"$schema": "https://gobl.org/draft-0/bill/invoice", "type": "nope", "lines": [{"item": {}}]}),
        );
        let paths: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
        for p in [
            "doc.type",
            "doc.issue_date",
            "doc.currency",
            "doc.supplier",
            "doc.lines[0].quantity",
            "doc.lines[0].item.price",
            "doc.totals",
        ] {
            assert!(paths.contains(&p), "{p} missing in {f:?}");
        }
    }

    #[test]
    fn tax_id_faults_have_paths() {
        let f = faults(
            json!({"$schema": "https://gobl.org/draft-0/org/party", "name": "x", "tax_id": {"country": "ES", "code": "B98602643"}}),
        );
        assert_eq!(
            f,
            vec![("doc.tax_id.code".to_string(), "tax-id-code".to_string())]
        );
        let f = faults(
            json!({"$schema": "https://gobl.org/draft-0/org/party", "name": "x", "tax_id": {"country": "ES", "code": "B98602642"}}),
        );
        assert!(f.is_empty());
    }

    #[test]
    fn combos_against_regime() {
        let doc = json!({"$schema": "https://gobl.org/draft-0/bill/invoice", "$regime": "ES", "type": "standard",
            "issue_date": "2024-01-01", "currency": "EUR", "supplier": {"name": "S"},
            "lines": [{"i": 1, "quantity": "1", "item": {"name": "a", "price": "1.00"}, "sum": "1.00", "total": "1.00",
                "taxes": [{"cat": "XX"}, {"cat": "VAT", "key": "exempt", "percent": "21%"}, {"cat": "VAT", "key": "bogus"}]}],
            "totals": {"sum": "1.00"}});
        let f = faults(doc);
        assert!(f.contains(&("doc.lines[0].taxes[0].cat".into(), "tax-combo-01".into())));
        assert!(f.contains(&(
            "doc.lines[0].taxes[1].percent".into(),
            "tax-combo-04".into()
        )));
        assert!(f.contains(&("doc.lines[0].taxes[2].key".into(), "tax-combo-02".into())));
    }
}
