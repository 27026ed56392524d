//! Envelope routing: a bill document names the party endpoints it travels between, and the
//! envelope's `head.from` / `head.to` take their URIs unless the caller set them.

use crate::json::{Map, Value};

use crate::bill::val::Obj;

/// The first endpoint URI of the party at `key` of `doc`.
fn first_endpoint<'a>(doc: &'a Obj, key: &str) -> Option<&'a str> {
    let party = doc.get(key)?.as_object()?;
    let first = party
        .get("endpoints")?
        .as_array()?
        .iter()
        .find(|e| !e.is_null())?;
    first.get("uri")?.as_str()
}

fn has_tag(doc: &Obj, tag: &str) -> bool {
    doc.get("$tags")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|v| v.as_str() == Some(tag)))
}

/// The sending and receiving parties' endpoint URIs, by the document's kind and direction.
fn endpoints(doc: &Obj) -> (Option<&str>, Option<&str>) {
    let schema = doc
        .get("$schema")
        .and_then(Value::as_str)
        .map(crate::bill::schema_path);
    let kind = doc.get("type").and_then(Value::as_str).unwrap_or_default();
    let ep = |k| first_endpoint(doc, k);
    let either = |a, b| ep(a).or_else(|| ep(b));
    let forward = |flip: bool| {
        let (s, c) = (ep("supplier"), ep("customer"));
        if flip { (c, s) } else { (s, c) }
    };
    match schema.unwrap_or_default() {
        "bill/invoice" => forward(has_tag(doc, "self-billed")),
        "bill/order" => forward(kind == "purchase"),
        "bill/payment" => forward(kind == "advice"),
        "bill/status" => match kind {
            "response" => forward(true),
            "update" => forward(false),
            _ => (None, None),
        },
        "bill/delivery" => {
            let despatcher = either("despatcher", "supplier");
            let receiver = either("receiver", "customer");
            if kind == "receipt" {
                (receiver, despatcher)
            } else {
                (despatcher, receiver)
            }
        }
        _ => (None, None),
    }
}

/// Fill the head's empty `from` and `to` from the document's endpoints.
pub(crate) fn route(head: &mut Map, doc: &Value) {
    let Some(doc) = doc.as_object() else { return };
    let (from, to) = endpoints(doc);
    for (k, uri) in [("from", from), ("to", to)] {
        let set = head
            .get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if let Some(uri) = uri.filter(|u| !u.is_empty() && !set) {
            head.insert(k.into(), Value::String(uri.into()));
        }
    }
}
