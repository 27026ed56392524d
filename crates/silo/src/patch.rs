//! RFC 7396 JSON merge patch over order- and literal-keeping JSON values.

use gobl::json::Value;

/// Applies `patch` to `target` (RFC 7396): objects merge member by member, `null` removes a
/// member, anything else replaces. New members go to the end; existing ones keep their place.
pub fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(patch_members) = patch else {
        *target = patch.clone();
        return;
    };
    if !matches!(target, Value::Object(_)) {
        *target = Value::Object(gobl::json::Map::new());
    }
    let Value::Object(members) = target else {
        return;
    };
    for (key, value) in patch_members {
        match (value, members.get_mut(key)) {
            (Value::Null, Some(_)) => {
                members.shift_remove(key);
            }
            (Value::Null, None) => {}
            (value, Some(slot)) => merge(slot, value),
            (value, None) => {
                let mut fresh = Value::Null;
                merge(&mut fresh, value);
                members.insert(key.clone(), fresh);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        gobl::json::parse(text).unwrap()
    }

    #[test]
    fn rfc7396_examples() {
        let cases = [
            (r#"{"a":"b"}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
            (r#"{"a":"b"}"#, r#"{"b":"c"}"#, r#"{"a":"b","b":"c"}"#),
            (r#"{"a":"b"}"#, r#"{"a":null}"#, r#"{}"#),
            (r#"{"a":"b","b":"c"}"#, r#"{"a":null}"#, r#"{"b":"c"}"#),
            (r#"{"a":["b"]}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
            (r#"{"a":"c"}"#, r#"{"a":["b"]}"#, r#"{"a":["b"]}"#),
            (
                r#"{"a":{"b":"c"}}"#,
                r#"{"a":{"b":"d","c":null}}"#,
                r#"{"a":{"b":"d"}}"#,
            ),
            (r#"{"a":[{"b":"c"}]}"#, r#"{"a":[1]}"#, r#"{"a":[1]}"#),
            (r#"["a","b"]"#, r#"["c","d"]"#, r#"["c","d"]"#),
            (r#"{"a":"b"}"#, r#"["c"]"#, r#"["c"]"#),
            (r#"{"a":"foo"}"#, r#"null"#, r#"null"#),
            (r#"{"e":null}"#, r#"{"a":1}"#, r#"{"e":null,"a":1}"#),
            (r#"[1,2]"#, r#"{"a":"b","c":null}"#, r#"{"a":"b"}"#),
            (
                r#"{}"#,
                r#"{"a":{"bb":{"ccc":null}}}"#,
                r#"{"a":{"bb":{}}}"#,
            ),
            (r#"{"n":90.00}"#, r#"{"m":1.50}"#, r#"{"n":90.00,"m":1.50}"#),
        ];
        for (target, patch, want) in cases {
            let mut t = v(target);
            merge(&mut t, &v(patch));
            assert_eq!(t.to_json_string(), want, "{target} + {patch}");
        }
    }
}
