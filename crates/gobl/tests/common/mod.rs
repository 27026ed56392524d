//! Helpers shared by the test files that compare folio's builds with the reference's outputs.

use serde_json::Value;

/// Differences between two JSON values, as `path: expected → got` lines.
pub fn diff(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => diff(&format!("{path}.{k}"), v, w, out),
                    None => out.push(format!("{path}.{k}: missing (want {})", short(v))),
                }
            }
            for (k, v) in b {
                if !a.contains_key(k) {
                    out.push(format!("{path}.{k}: unexpected {}", short(v)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ if want == got => {}
        _ => out.push(format!("{path}: want {} got {}", short(want), short(got))),
    }
}

pub fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}
