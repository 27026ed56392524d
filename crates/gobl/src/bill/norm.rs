//! Normalisation of GOBL documents before calculation.

use crate::json::Value;

use super::CalcError;
use super::combo;
use super::invoice::{calculate_invoice, regime_for};
use super::invoice_lines::LinePlaces;
use super::total;
use super::val::{
    Obj, amount, field, get, get_mut, insert_after, num_err, num_text, percent, set_amount, string,
};
use crate::currency::ExchangeRate;
use crate::num::Amount;

/// Normalise a tax identity code: upper-case, keep only `A-Z 0-9 Ñ &`, and strip the
/// country prefix (or any of `alt` prefixes).
pub fn normalize_tax_id_code(code: &str, country: &str, alt: &[&str]) -> String {
    // Most codes are clean already (capitals and digits): only their prefix can go.
    let cleaned;
    let mut c = if code
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    {
        code
    } else {
        cleaned = code
            .to_uppercase()
            .chars()
            .filter(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || *ch == 'Ñ' || *ch == '&')
            .collect::<String>();
        &cleaned
    };
    if !country.is_empty()
        && let Some(rest) = c.strip_prefix(country)
    {
        c = rest;
    }
    for a in alt {
        if let Some(rest) = c.strip_prefix(a) {
            c = rest;
        }
    }
    c.to_string()
}

/// The short schema of a document (`bill/invoice`), from its `$schema` URL.
pub(crate) fn short_schema(doc: &Obj) -> &str {
    string(doc, "$schema").map(schema_path).unwrap_or("")
}

/// A `$schema` URL without GOBL's base (`bill/invoice`). The base is stripped as a prefix,
/// as often as it repeats: trimming it as a pattern would set up a substring search first.
pub(crate) fn schema_path(mut url: &str) -> &str {
    while let Some(rest) = url.strip_prefix("https://gobl.org/draft-0/") {
        url = rest;
    }
    url
}

fn short_schema_of(v: &Value) -> &str {
    v.as_object().map(short_schema).unwrap_or("")
}

/// Normalise a tax identity: its code cleaned of symbols and country prefix, then by its
/// regime's own rule (a French SIREN completed to a VAT code, a Spanish code padded, …).
fn normalize_identity(t: &mut Obj) {
    let country = string(t, "country").unwrap_or_default().to_string();
    if let Some(code) = string(t, "code") {
        let alt: &[&str] = match country.as_str() {
            "GB" => &["XI", "XU"],
            "EL" | "GR" => &["EL", "GR"],
            _ => &[],
        };
        let mut n = match country.as_str() {
            "MX" => crate::regimes::mx::normalize_rfc(code),
            _ => normalize_tax_id_code(code, &country, alt),
        };
        if let Some(f) = crate::regimes::get(&country).and_then(|r| r.hooks.normalize_tax_id) {
            n = f(n);
        }
        t.insert("code".into(), Value::String(n.into()));
    }
    if country == "GR" {
        // Greece's tax country is EL, whichever code the identity was given with.
        t.insert("country".into(), Value::String("EL".into()));
    }
}

fn supplier_country(doc: &Obj) -> Option<String> {
    doc.get("supplier")?
        .get("tax_id")?
        .get("country")?
        .as_str()
        .map(str::to_string)
}

/// `$regime` from the supplier's tax-id country, when folio knows a regime for it.
fn set_regime_from_supplier(doc: &mut Obj) {
    if string(doc, "$regime").is_none()
        && let Some(r) = supplier_country(doc).and_then(|c| crate::regimes::get(&c))
    {
        insert_after(doc, "$schema", "$regime", Value::String(r.country.into()));
    }
}

/// Turn numeric amount fields into their string form (`20` → `"20"`).
#[inline(always)]
fn stringify_amount(o: &mut Obj, k: &str) {
    if let Some(v @ Value::Number(_)) = get_mut(o, k) {
        let t = num_text(v).unwrap_or_default().into_owned();
        *v = Value::String(t.into());
    }
}

/// Drop empty arrays and null entries of `k`.
#[inline(always)]
fn clean_list(o: &mut Obj, k: &str) {
    let remove = match get_mut(o, k) {
        Some(Value::Array(a)) => {
            a.retain(|v| !v.is_null() && v.as_object().is_none_or(|m| !m.is_empty()));
            a.is_empty()
        }
        Some(v) => v.is_null(),
        None => false,
    };
    if remove {
        o.remove(k);
    }
}

fn normalize_line(l: &mut Obj) {
    // Which lists the line has, in one pass: most lines have neither charges nor sub-lines,
    // and each step below for one would look for it in vain.
    let places = LinePlaces::of(l);
    let taxes = places.taxes.is_some();
    let adjustments = places.discounts.is_some() || places.charges.is_some();
    let sublines = places.sublines;
    stringify_amount(l, "quantity");
    if let Some(item) = get_mut(l, "item").and_then(Value::as_object_mut) {
        stringify_amount(item, "price");
        // (a price is read as an amount only when it may be negative)
        let signed = get(item, "price")
            .and_then(Value::as_str)
            .is_some_and(|p| p.starts_with('-'));
        let neg = signed
            .then(|| amount(item, "price", "").ok().flatten())
            .flatten()
            .filter(Amount::is_negative);
        if let Some(p) = neg
            && let Ok(pp) = p.negate()
        {
            set_amount(item, "price", pp);
            if let Ok(Some(q)) = amount(l, "quantity", "")
                && let Ok(nq) = q.negate()
            {
                set_amount(l, "quantity", nq);
            }
        }
    }
    if taxes {
        clean_list(l, "taxes");
    }
    if adjustments {
        clean_list(l, "discounts");
        clean_list(l, "charges");
    }
    if sublines {
        super::sublines::normalize(l);
    }
    if taxes {
        normalize_combos(l);
    }
    if !adjustments {
        return;
    }
    for k in ["discounts", "charges"] {
        for d in get_mut(l, k)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(o) = d.as_object_mut() {
                for f in ["amount", "base", "rate", "quantity"] {
                    stringify_amount(o, f);
                }
            }
        }
    }
}

fn normalize_combos(o: &mut Obj) {
    clean_list(o, "taxes");
    if let Some(taxes) = get_mut(o, "taxes").and_then(Value::as_array_mut) {
        for t in taxes.iter_mut() {
            if let Some(c) = t.as_object_mut() {
                stringify_amount(c, "percent");
                combo::normalize(c);
            }
        }
        taxes.retain(|t| {
            field(t, "cat")
                .and_then(Value::as_str)
                .is_some_and(|c| !c.is_empty())
        });
    }
    clean_list(o, "taxes");
}

/// Normalise the parts shared by invoices, deliveries and orders.
fn normalize_billable(doc: &mut Obj) {
    set_regime_from_supplier(doc);
    drop_empty_line_discounts(doc);
    legacy_tax(doc);
    normalize_items(doc);
    legacy_advances(doc);
}

/// Legacy `tax.tags` become `$tags`, and legacy rounding names today's.
fn legacy_tax(doc: &mut Obj) {
    if let Some(tax) = doc.get_mut("tax").and_then(Value::as_object_mut) {
        let tags = tax.remove("tags");
        match tax.get("rounding").and_then(Value::as_str) {
            Some("sum-then-round") => {
                tax.insert("rounding".into(), Value::String("precise".into()));
            }
            Some("round-then-sum") => {
                tax.insert("rounding".into(), Value::String("currency".into()));
            }
            _ => {}
        }
        if let Some(Value::Array(tags)) = tags {
            let list = doc
                .entry(("$tags").into())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(list) = list.as_array_mut() {
                for t in tags {
                    if !list.contains(&t) {
                        list.push(t);
                    }
                }
            }
            if let Some(v) = doc.remove("$tags") {
                let at = doc
                    .keys()
                    .position(|k| k == "$regime" || k == "$addons")
                    .map(|i| i + 1)
                    .unwrap_or(1);
                let at = at.min(doc.len());
                doc.shift_insert(at, "$tags".into(), v);
            }
        }
    }
}

/// Lines, discounts and charges: empty ones dropped, amounts as text, tax combos normalised.
fn normalize_items(doc: &mut Obj) {
    for k in ["lines", "discounts", "charges"] {
        clean_list(doc, k);
    }
    for l in get_mut(doc, "lines")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if let Some(o) = l.as_object_mut() {
            normalize_line(o);
        }
    }
    for k in ["discounts", "charges"] {
        for d in get_mut(doc, k)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(o) = d.as_object_mut() {
                o.retain(|k, _| ALLOWANCE_FIELDS.contains(&k.as_str()));
                for f in ["amount", "base"] {
                    stringify_amount(o, f);
                }
                normalize_combos(o);
            }
        }
    }
}

/// A payment advance's legacy `desc` becomes its `description`.
fn legacy_advances(doc: &mut Obj) {
    if let Some(pay) = doc.get_mut("payment").and_then(Value::as_object_mut) {
        for a in pay
            .get_mut("advances")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if let Some(o) = a.as_object_mut()
                && let Some(d) = o.remove("desc")
                && !o.contains_key("description")
            {
                let after = if o.contains_key("date") {
                    "date"
                } else {
                    "key"
                };
                insert_after(o, after, "description", d);
            }
        }
    }
}

/// Members of a document-level discount or charge; others are dropped, as the reference's
/// typed decoding does (e.g. a charge's `description`).
const ALLOWANCE_FIELDS: &[&str] = &[
    "uuid", "i", "key", "code", "reason", "base", "percent", "amount", "taxes", "ext", "meta",
];

/// Members of an invoice (and the schema markers); others are unknown and dropped, as the
/// reference's typed decoding does.
const INVOICE_FIELDS: &[&str] = &[
    "$schema",
    "$regime",
    "$addons",
    "$tags",
    "uuid",
    "type",
    "series",
    "code",
    "issue_date",
    "issue_time",
    "op_date",
    "value_date",
    "currency",
    "exchange_rates",
    "preceding",
    "tax",
    "supplier",
    "customer",
    "lines",
    "discounts",
    "charges",
    "ordering",
    "payment",
    "delivery",
    "totals",
    "notes",
    "complements",
    "meta",
    "attachments",
];

/// Members of a postal address.
const ADDRESS_FIELDS: &[&str] = &[
    "uuid",
    "label",
    "po_box",
    "num",
    "floor",
    "block",
    "door",
    "street",
    "street_extra",
    "locality",
    "region",
    "state",
    "code",
    "country",
    "coords",
    "meta",
];

/// Members of payment instructions.
const INSTRUCTIONS_FIELDS: &[&str] = &[
    "key",
    "detail",
    "ref",
    "credit_transfer",
    "card",
    "direct_debit",
    "online",
    "notes",
    "ext",
    "meta",
];

/// An inbox whose code is an e-mail address gives it as its `email`.
fn normalize_inboxes(o: &mut Obj) {
    let Some(Value::Array(inboxes)) = get_mut(o, "inboxes") else {
        return;
    };
    for inbox in inboxes.iter_mut().filter_map(Value::as_object_mut) {
        if string(inbox, "code").is_some_and(looks_like_email)
            && let Some(code) = inbox.remove("code")
        {
            inbox.insert("email".into(), code);
        }
    }
}

/// One `@` between a local part and a dotted domain, without spaces.
fn looks_like_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !s.chars().any(char::is_whitespace)
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|p| !p.is_empty())
}

/// Walk the document once: normalise every `tax_id` object and, when `drop` (bill
/// documents), drop what the reference's typed decoding and `omitempty` encoding would not
/// keep: null members, empty arrays, empty `ext`/`meta` maps, and unknown members of
/// addresses, and a nested object's (`nested`) zero `uuid`. (A tax id is normalised after its
/// parent's members are dropped, as when these were two walks, dropping first.)
fn clean_tree(v: &mut Value, drop: bool, nested: bool) {
    match v {
        Value::Object(o) => {
            let named = Named::of(o);
            // a nested object's zero (or empty) `uuid` says nothing: GOBL drops it (the
            // document's own is left alone)
            if drop && nested && named.has(Named::ZERO_UUID) {
                o.remove("uuid");
            }
            if drop {
                drop_empty_members(o, named);
            }
            if named.has(Named::TAX_ID)
                && let Some(Value::Object(t)) = get_mut(o, "tax_id")
            {
                normalize_identity(t);
            }
            if named.has(Named::INBOXES) {
                normalize_inboxes(o);
            }
            // (only objects and arrays hold anything to clean)
            for (_, x) in o.iter_mut().filter(|(_, x)| x.is_object() || x.is_array()) {
                clean_tree(x, drop, true);
            }
            // (What the walk of the members changes holds no array, so none is left empty
            // that `drop_empty_members` kept.)
        }
        Value::Array(a) => a
            .iter_mut()
            .filter(|x| x.is_object() || x.is_array())
            .for_each(|x| clean_tree(x, drop, true)),
        _ => {}
    }
}

/// What [`clean_tree`] looks for in an object, found in one pass over its members rather
/// than by looking each name up in turn (most objects have none of them).
#[derive(Clone, Copy)]
struct Named(u8);

impl Named {
    const EXT: u8 = 1;
    const ADDRESSES: u8 = 2;
    const INSTRUCTIONS: u8 = 4;
    const TAX_ID: u8 = 8;
    const INBOXES: u8 = 16;
    /// A member [`drop_empty_members`] drops: null, an empty array, an empty `ext` or `meta`.
    const EMPTY: u8 = 32;
    /// A `uuid` that is empty or all zeros.
    const ZERO_UUID: u8 = 64;

    fn of(o: &Obj) -> Named {
        let mut bits = 0;
        for (k, x) in o {
            let (name, empty_map) = match k.as_str() {
                "ext" => (Self::EXT, true),
                "meta" => (0, true),
                "addresses" => (Self::ADDRESSES, false),
                "instructions" => (Self::INSTRUCTIONS, false),
                "tax_id" => (Self::TAX_ID, false),
                "inboxes" => (Self::INBOXES, false),
                "uuid" if x.as_str().is_some_and(is_zero_uuid) => (Self::ZERO_UUID, false),
                _ => (0, false),
            };
            bits |= name;
            if x.is_null()
                || x.as_array().is_some_and(Vec::is_empty)
                || (empty_map && x.as_object().is_some_and(|m| m.is_empty()))
            {
                bits |= Self::EMPTY;
            }
        }
        Named(bits)
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

fn is_zero_uuid(u: &str) -> bool {
    u.is_empty() || u == "00000000-0000-0000-0000-000000000000"
}

/// [`clean_tree`]'s dropping of an object's own members (before its members are walked);
/// extension entries without a code go too.
fn drop_empty_members(o: &mut Obj, named: Named) {
    let mut empty = named.has(Named::EMPTY);
    if named.has(Named::EXT)
        && let Some(Value::Object(ext)) = get_mut(o, "ext")
    {
        ext.retain(|_, x| x.as_str() != Some(""));
        // an `ext` left empty goes too
        empty |= ext.is_empty();
    }
    if empty {
        o.retain(|k, x| {
            !(x.is_null()
                || x.as_array().is_some_and(Vec::is_empty)
                || (matches!(k.as_str(), "ext" | "meta")
                    && x.as_object().is_some_and(|m| m.is_empty())))
        });
    }
    if named.has(Named::ADDRESSES)
        && let Some(Value::Array(a)) = get_mut(o, "addresses")
    {
        for ad in a.iter_mut().filter_map(Value::as_object_mut) {
            ad.retain(|k, _| ADDRESS_FIELDS.contains(&k.as_str()));
        }
    }
    if named.has(Named::INSTRUCTIONS)
        && let Some(Value::Object(i)) = get_mut(o, "instructions")
    {
        i.retain(|k, _| INSTRUCTIONS_FIELDS.contains(&k.as_str()));
    }
}

/// A line discount that says nothing (no key, code, reason, percentage, amount or ext) is
/// dropped, as GOBL does; a line left without discounts loses the member.
fn drop_empty_line_discounts(doc: &mut Obj) {
    let zero = |v: Option<&Value>| {
        v.and_then(Value::as_str).is_none_or(|s| {
            s.trim_end_matches('%')
                .chars()
                .all(|c| matches!(c, '0' | '.' | '-' | ' '))
        })
    };
    let blank = |v: Option<&Value>| match v {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Object(o)) => o.is_empty(),
        _ => false,
    };
    for line in get_mut(doc, "lines")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let Some(l) = line.as_object_mut() else {
            continue;
        };
        if let Some(Value::Array(discounts)) = get_mut(l, "discounts") {
            discounts.retain(|d| {
                !(["key", "code", "reason", "ext"]
                    .iter()
                    .all(|k| blank(field(d, k)))
                    && zero(field(d, "percent"))
                    && zero(field(d, "amount")))
            });
            if discounts.is_empty() {
                l.remove("discounts");
            }
        }
    }
}

/// Normalise (and, for bill documents, calculate) a GOBL document in place, by `$schema`.
/// Unknown schemas are carried as they are.
pub fn normalize_document(doc: &mut Obj) -> Result<(), CalcError> {
    let mut v = Value::Object(std::mem::take(doc));
    let bill = short_schema_of(&v).starts_with("bill/");
    clean_tree(&mut v, bill, false);
    if let Value::Object(o) = v {
        *doc = o;
    }
    match short_schema(doc) {
        "bill/invoice" => {
            doc.retain(|k, _| INVOICE_FIELDS.contains(&k.as_str()));
            normalize_billable(doc);
            if string(doc, "type").is_none() {
                insert_after(doc, "uuid", "type", Value::String("standard".into()));
            }
            let regime = regime_for(doc);
            if let Some(f) = regime.and_then(|r| r.hooks.normalize) {
                f(doc);
            }
            crate::addons::normalize_invoice(doc);
            calculate_invoice(doc, regime)?;
            if let Some(f) = regime.and_then(|r| r.hooks.calculated) {
                f(doc);
            }
            crate::addons::calculated_invoice(doc);
            Ok(())
        }
        "bill/delivery" | "bill/order" => {
            normalize_billable(doc);
            let regime = regime_for(doc);
            calculate_invoice(doc, regime)
        }
        "tax/identity" => {
            normalize_identity(doc);
            Ok(())
        }
        "bill/payment" => {
            set_regime_from_supplier(doc);
            calculate_payment(doc)
        }
        "bill/status" => {
            set_regime_from_supplier(doc);
            for (i, l) in doc
                .get_mut("lines")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
                .enumerate()
            {
                if let Some(o) = l.as_object_mut() {
                    if o.contains_key("index") {
                        o.insert("index".into(), Value::from(i + 1));
                    } else {
                        o.shift_insert(0, "index".into(), Value::from(i + 1));
                    }
                    for r in o
                        .get_mut("reasons")
                        .and_then(Value::as_array_mut)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(ro) = r.as_object_mut() {
                            ro.retain(|k, _| {
                                matches!(k.as_str(), "key" | "description" | "faults" | "ext")
                            });
                        }
                    }
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// What a payment's lines are calculated with.
struct PayCtx {
    cur: String,
    sub: u32,
    precise: bool,
    rates: Vec<ExchangeRate>,
}

/// The document's `exchange_rates`.
fn exchange_rates(doc: &Obj) -> Result<Vec<ExchangeRate>, CalcError> {
    let mut rates = Vec::new();
    for (i, r) in doc
        .get("exchange_rates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(o) = r.as_object() else { continue };
        let p = format!("doc.exchange_rates[{i}]");
        let a = amount(o, "amount", &p)?.ok_or_else(|| CalcError::new(&p, "amount required"))?;
        rates.push(ExchangeRate {
            from: string(o, "from").unwrap_or_default().into(),
            to: string(o, "to").unwrap_or_default().into(),
            amount: a,
        });
    }
    Ok(rates)
}

/// A payment line: the referenced document's taxes are calculated (and rounded) in the
/// payment's currency; its `payable` moves to the line (converted); with a payable, the
/// document's taxes scaled by `amount / payable` become the line's `tax`, and `due =
/// payable − advances − amount`.
fn calculate_payment_line(o: &mut Obj, ctx: &PayCtx, p: &str) -> Result<(), CalcError> {
    let mut doc_tax: Option<Obj> = None;
    if let Some(d) = o.get_mut("document").and_then(Value::as_object_mut) {
        let dp = format!("{p}.document");
        let mut rate = None;
        if let Some(dc) = string(d, "currency")
            && dc != ctx.cur
        {
            rate = Some(
                ctx.rates
                    .iter()
                    .find(|r| r.from == dc && r.to == ctx.cur)
                    .ok_or_else(|| {
                        CalcError::new(
                            format!("{dp}.currency"),
                            format!("missing exchange rate from {dc} to {}", ctx.cur),
                        )
                    })?,
            );
        }
        if let Some(t) = d.get_mut("tax").and_then(Value::as_object_mut) {
            let tp = format!("{dp}.tax");
            total::calculate(t, ctx.sub, ctx.precise, &tp)?;
            total::round(t, ctx.sub, &tp)?;
            let mut lt = t.clone();
            if let Some(r) = rate {
                total::exchange(&mut lt, r, &tp)?;
                total::calculate(&mut lt, ctx.sub, ctx.precise, &tp)?;
            }
            doc_tax = Some(lt);
        }
        stringify_amount(d, "payable");
        if let Some(pa) = amount(d, "payable", &dp)? {
            let pa = match rate {
                Some(r) => pa
                    .mul(r.amount)
                    .and_then(|a| a.rescale(ctx.sub))
                    .map_err(num_err(&dp))?,
                None => pa,
            };
            insert_after(o, "document", "payable", Value::String(pa.to_text()));
        }
    }
    for k in ["payable", "advances"] {
        stringify_amount(o, k);
    }
    let e = num_err(p);
    if let Some(payable) = amount(o, "payable", p)? {
        if let Some(mut lt) = doc_tax {
            let a = amount(o, "amount", p)?.unwrap_or(Amount::ZERO);
            let exp = a.exp() + 2;
            let factor = a.rescale_up(exp).and_then(|x| x.div(payable)).map_err(&e)?;
            if !factor.is_zero() {
                total::map_bases(&mut lt, &format!("{p}.tax"), |b| b.mul(factor))?;
                total::calculate(&mut lt, ctx.sub, ctx.precise, &format!("{p}.tax"))?;
            }
            o.insert("tax".into(), Value::Object(lt));
        } else if let Some(t) = o.get_mut("tax").and_then(Value::as_object_mut) {
            total::calculate(t, ctx.sub, ctx.precise, &format!("{p}.tax"))?;
        }
        let mut due = payable;
        if let Some(adv) = amount(o, "advances", p)? {
            due = due.sub(adv).map_err(&e)?;
        }
        let a = amount(o, "amount", p)?.unwrap_or(Amount::ZERO);
        due = due.sub(a).map_err(&e)?;
        insert_after(o, "amount", "due", Value::String(due.to_text()));
    } else if let Some(t) = o.get_mut("tax").and_then(Value::as_object_mut) {
        total::calculate(t, ctx.sub, ctx.precise, &format!("{p}.tax"))?;
    }
    Ok(())
}

fn calculate_payment(doc: &mut Obj) -> Result<(), CalcError> {
    legacy_method(doc);
    let ctx = payment_context(doc)?;
    let total = match payment_lines(doc, &ctx)? {
        Some(t) => {
            set_amount(doc, "total", t);
            t
        }
        None => amount(doc, "total", "doc")?.unwrap_or(Amount::ZERO),
    };
    method_amounts(doc, total)
}

/// A legacy single `method` becomes the one entry of `methods` (when there are none).
fn legacy_method(doc: &mut Obj) {
    if let Some(m) = doc.remove("method")
        && doc
            .get("methods")
            .and_then(Value::as_array)
            .is_none_or(|a| a.is_empty())
    {
        let mut rec = Obj::new();
        if let Some(mo) = m.as_object() {
            for (k, v) in mo {
                match k.as_str() {
                    "ref" => {
                        rec.insert("ref".into(), v.clone());
                    }
                    "detail" => {
                        rec.insert("description".into(), v.clone());
                    }
                    "credit_transfer" => {
                        if let Some(first) = v.as_array().and_then(|a| a.first()) {
                            rec.insert("credit_transfer".into(), first.clone());
                        }
                    }
                    "key" | "card" | "direct_debit" | "online" | "ext" | "meta" => {
                        rec.insert(k.clone(), v.clone());
                    }
                    _ => {}
                }
            }
        }
        doc.insert("methods".into(), Value::Array(vec![Value::Object(rec)]));
    }
}

/// The payment's type and currency (defaults from its regime), and what its lines are
/// calculated with.
fn payment_context(doc: &mut Obj) -> Result<PayCtx, CalcError> {
    if string(doc, "type").is_none() {
        insert_after(doc, "uuid", "type", Value::String("receipt".into()));
    }
    let regime = regime_for(doc);
    if string(doc, "currency").is_none() {
        match regime {
            Some(r) => insert_after(
                doc,
                "issue_date",
                "currency",
                Value::String(r.currency.into()),
            ),
            None => {
                return Err(CalcError::new(
                    "doc.currency",
                    "required, unable to determine",
                ));
            }
        }
    }
    let cur = string(doc, "currency").unwrap_or_default().to_string();
    Ok(PayCtx {
        sub: crate::currency::subunits(&cur).unwrap_or(2),
        precise: regime.map(|r| r.rounding_rule()).unwrap_or("precise") != "currency",
        rates: exchange_rates(doc)?,
        cur,
    })
}

/// Numbers the lines and calculates each; their sum (refunds negative), if there are any.
fn payment_lines(doc: &mut Obj, ctx: &PayCtx) -> Result<Option<Amount>, CalcError> {
    let mut total: Option<Amount> = None;
    for (i, l) in doc
        .get_mut("lines")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(o) = l.as_object_mut() else { continue };
        if o.contains_key("i") {
            o.insert("i".into(), Value::from(i + 1));
        } else {
            o.shift_insert(0, "i".into(), Value::from(i + 1));
        }
        stringify_amount(o, "amount");
        let p = format!("doc.lines[{i}]");
        calculate_payment_line(o, ctx, &p)?;
        let mut a = amount(o, "amount", &p)?.unwrap_or(Amount::ZERO);
        if o.get("refund").and_then(Value::as_bool) == Some(true) {
            a = a.negate().map_err(|e| CalcError::new(&p, e.to_string()))?;
        }
        total = Some(match total {
            None => a,
            Some(t) => t.add(a).map_err(|e| CalcError::new(&p, e.to_string()))?,
        });
    }
    Ok(total)
}

/// Each method's amount: its percent of the total, or the whole total for a single method
/// without an amount or currency of its own.
fn method_amounts(doc: &mut Obj, total: Amount) -> Result<(), CalcError> {
    if let Some(ms) = doc.get_mut("methods").and_then(Value::as_array_mut) {
        let single = ms.len() == 1;
        for (i, m) in ms.iter_mut().enumerate() {
            let Some(o) = m.as_object_mut() else { continue };
            let p = format!("doc.methods[{i}]");
            if let Some(pc) = percent(o, "percent", &p)? {
                let a = pc
                    .of(total)
                    .map_err(|e| CalcError::new(&p, e.to_string()))?;
                set_amount(o, "amount", a);
            }
            let amt = amount(o, "amount", &p)?.unwrap_or(Amount::ZERO);
            if single && amt.is_zero() && string(o, "currency").is_none() {
                set_amount(o, "amount", total);
            }
        }
    }
    Ok(())
}
