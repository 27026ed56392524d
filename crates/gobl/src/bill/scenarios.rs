//! Scenarios: the notes and extensions an invoice gains from its type, tags, tax categories
//! and extensions — the regime's scenarios first, then each add-on's in `$addons` order.

use crate::json::Value;

use super::val::{Obj, field, get};
use crate::tax::RegimeDef;
use crate::tax::defs::{Scenario, ScenarioNote};

/// Categories used by the invoice's lines, charges and discounts.
fn tax_categories(doc: &Obj) -> Vec<String> {
    let mut cats = Vec::new();
    for arr in ["lines", "charges", "discounts"] {
        for l in get(doc, arr)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for t in field(l, "taxes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(c) = field(t, "cat").and_then(Value::as_str)
                    && !cats.iter().any(|x| x == c)
                {
                    cats.push(c.to_string());
                }
            }
        }
    }
    cats
}

/// What an invoice is matched on.
struct Subject<'a> {
    doc: &'a Obj,
    kind: &'a str,
    tags: &'a [String],
    cats: Vec<String>,
}

impl Subject<'_> {
    fn matches(&self, s: &Scenario) -> bool {
        (s.types.is_empty() || s.types.contains(&self.kind))
            && s.tags.iter().all(|t| self.tags.iter().any(|x| x == t))
            && (s.cats.is_empty() || s.cats.iter().any(|c| self.cats.iter().any(|x| x == c)))
            && s.ext_match
                .is_none_or(|(k, v)| tax_ext(self.doc, k) == Some(v))
            && s.filter.is_none_or(|f| f(self.doc))
    }
}

/// A value of the invoice's `tax.ext`.
fn tax_ext<'a>(doc: &'a Obj, key: &str) -> Option<&'a str> {
    get(doc, "tax")?.get("ext")?.get(key)?.as_str()
}

/// Add the notes and extensions of every matching scenario of the regime and the add-ons.
pub(super) fn apply(doc: &mut Obj, regime: Option<&'static RegimeDef>, tags: &[String]) {
    let addons = crate::addons::active(doc);
    let all = regime
        .map(|r| r.scenarios)
        .into_iter()
        .chain(addons.iter().map(|a| a.scenarios))
        .flatten();
    let subject = Subject {
        doc,
        kind: get(doc, "type")
            .and_then(Value::as_str)
            .unwrap_or("standard"),
        tags,
        cats: tax_categories(doc),
    };
    let mut notes: Vec<&ScenarioNote> = Vec::new();
    let mut ext: Vec<(&str, &str)> = Vec::new();
    for s in all.filter(|s| subject.matches(s)) {
        if let Some(n) = &s.note {
            match notes.iter().position(|x| x.cat == n.cat && x.key == n.key) {
                Some(i) => notes[i] = n,
                None => notes.push(n),
            }
        }
        for (k, v) in s.ext {
            match ext.iter().position(|x| x.0 == *k) {
                Some(i) => ext[i].1 = v,
                None => ext.push((k, v)),
            }
        }
    }
    if notes.is_empty() && ext.is_empty() {
        return;
    }
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Obj::new()));
    let Some(tax) = tax.as_object_mut() else {
        return;
    };
    if !ext.is_empty() {
        set_ext(tax, &ext);
    }
    if !notes.is_empty() {
        add_notes(tax, &notes);
    }
}

fn set_ext(tax: &mut Obj, ext: &[(&str, &str)]) {
    let map = tax
        .entry("ext".into())
        .or_insert_with(|| Value::Object(Obj::new()));
    if let Some(map) = map.as_object_mut() {
        for (k, v) in ext {
            map.insert((*k).into(), Value::String((*v).into()));
        }
        map.sort_keys();
    }
}

fn add_notes(tax: &mut Obj, notes: &[&ScenarioNote]) {
    let list = tax
        .entry("notes".into())
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return;
    };
    for n in notes {
        let exists = list.iter().any(|x| {
            x.get("key").and_then(Value::as_str) == Some(n.key)
                && x.get("cat").and_then(Value::as_str) == n.cat
        });
        if exists {
            continue;
        }
        let mut o = Obj::new();
        if let Some(c) = n.cat {
            o.insert("cat".into(), Value::String(c.into()));
        }
        o.insert("key".into(), Value::String(n.key.into()));
        if let Some(c) = n.code {
            o.insert("code".into(), Value::String(c.into()));
        }
        if let Some(s) = n.src {
            o.insert("src".into(), Value::String(s.into()));
        }
        o.insert("text".into(), Value::String(n.text.into()));
        list.push(Value::Object(o));
    }
}
