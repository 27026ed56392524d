//! What several regimes ask of parties and their org identities (the objects of any
//! `identities` array: parties', items', ...): walks over every identity of a document, and
//! the supplier rule "a tax id code or an identity of one of these types".

use crate::json::Value;

use crate::bill::val::{Obj, get, string};
use crate::fault::{Fault, Path};
use crate::tax::defs::Doc;

/// Apply `f` to every org identity of the document.
pub(crate) fn each_identity_mut(doc: &mut Doc, f: &mut impl FnMut(&mut Obj)) {
    for (k, v) in doc.iter_mut() {
        walk_mut(k == "identities", v, f);
    }
}

fn walk_mut(in_identities: bool, v: &mut Value, f: &mut impl FnMut(&mut Obj)) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                walk_mut(k == "identities", x, f);
            }
        }
        Value::Array(a) => {
            for x in a.iter_mut() {
                match x.as_object_mut() {
                    Some(id) if in_identities => f(id),
                    _ => walk_mut(false, x, f),
                }
            }
        }
        _ => {}
    }
}

/// Visit every org identity of the document with its path (`doc.supplier.identities[0]`).
pub(crate) fn each_identity(doc: &Doc, f: &mut impl FnMut(&Path, &Obj)) {
    walk_obj(&Path::Root("doc"), doc, f);
}

fn walk_obj(path: &Path, o: &Obj, f: &mut impl FnMut(&Path, &Obj)) {
    for (k, x) in o {
        let p = path.member(k);
        match x {
            Value::Object(m) => walk_obj(&p, m, f),
            Value::Array(a) => {
                for (i, y) in a.iter().enumerate() {
                    let Some(m) = y.as_object() else { continue };
                    let pi = p.item(i);
                    if k == "identities" {
                        f(&pi, m);
                    } else {
                        walk_obj(&pi, m, f);
                    }
                }
            }
            _ => {}
        }
    }
}

/// An identity's `type` (empty when absent).
pub(crate) fn id_type(id: &Obj) -> &str {
    string(id, "type").unwrap_or("")
}

/// An identity's `code` (empty when absent).
pub(crate) fn id_code(id: &Obj) -> &str {
    string(id, "code").unwrap_or("")
}

/// Only the digits of a code, as GOBL's numerical code normalisation keeps them.
pub(crate) fn numeric(code: &str) -> String {
    code.chars().filter(char::is_ascii_digit).collect()
}

/// The supplier of a document, when it is an object.
pub(crate) fn supplier(doc: &Doc) -> Option<&Obj> {
    get(doc, "supplier").and_then(Value::as_object)
}

/// Whether a party has a tax id with a non-empty code.
pub(crate) fn has_tax_code(party: &Obj) -> bool {
    get(party, "tax_id")
        .and_then(Value::as_object)
        .and_then(|t| string(t, "code"))
        .is_some_and(|c| !c.is_empty())
}

/// Whether a party has an identity of one of `types`.
pub(crate) fn has_identity(party: &Obj, types: &[&str]) -> bool {
    get(party, "identities")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .any(|id| types.contains(&id_type(id)))
}

/// The supplier must have a tax id code or an identity of one of `types` (a missing
/// supplier fails too, as the reference's rule runs on a nil party).
pub(crate) fn supplier_code_or_identity(
    doc: &Doc,
    types: &[&str],
    code: &str,
    message: &str,
    faults: &mut Vec<Fault>,
) {
    let ok = supplier(doc).is_some_and(|p| has_tax_code(p) || has_identity(p, types));
    if !ok {
        faults.push(Fault::at("doc.supplier", code, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn doc(v: Value) -> Doc {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn walks_every_identity_with_its_path() {
        let d = doc(json!({
            "supplier": {"identities": [{"type": "A", "code": "1"}]},
            "lines": [{"item": {"identities": [{"type": "B", "code": "2"}]}}]
        }));
        let mut seen = Vec::new();
        each_identity(&d, &mut |p, id| {
            seen.push(format!("{p}={}", id_type(id)));
        });
        assert_eq!(
            seen,
            [
                "doc.supplier.identities[0]=A",
                "doc.lines[0].item.identities[0]=B"
            ]
        );
        let mut d = d;
        each_identity_mut(&mut d, &mut |id| {
            id.insert("code".into(), json!("x"));
        });
        assert_eq!(d["lines"][0]["item"]["identities"][0]["code"], "x");
        assert_eq!(d["supplier"]["identities"][0]["code"], "x");
    }

    #[test]
    fn supplier_rule() {
        let mut f = Vec::new();
        let with_code = doc(json!({"supplier": {"tax_id": {"country": "SE", "code": "1"}}}));
        supplier_code_or_identity(&with_code, &["ON"], "x-01", "m", &mut f);
        let with_id = doc(json!({"supplier": {"identities": [{"type": "ON", "code": "1"}]}}));
        supplier_code_or_identity(&with_id, &["ON"], "x-01", "m", &mut f);
        assert!(f.is_empty());
        let neither = doc(json!({"supplier": {"tax_id": {"country": "SE"}}}));
        supplier_code_or_identity(&neither, &["ON"], "x-01", "m", &mut f);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].code, "x-01");
    }
}
