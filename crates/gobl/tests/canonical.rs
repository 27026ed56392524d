//! Canonical JSON and digest vectors, including every reference example envelope.

use std::path::PathBuf;

use gobl::canonical::{canonical, canonical_number};
use gobl::digest::digest;
use gobl::json::{Value, parse};

fn canon(text: &str) -> String {
    canonical(&parse(text).expect("test input parses")).expect("canonical form")
}

#[test]
fn gobl_md_vector() {
    assert_eq!(
        canon(r#"{ "foo":"bar", "c": 123.4, "a": 56, "b": 0.0, "y":null}"#),
        r#"{"a":56,"b":0.0E0,"c":1.234E2,"foo":"bar"}"#
    );
}

/// The vector from the reference implementation's canonicalisation test (current version,
/// which drops the `"wife": null` member; older versions kept nulls and hashed to ef76d0…).
#[test]
fn reference_c14n_vector() {
    let data = "{\n\t\"actors\": [\n\t\t{\n\t\t\t\"name\": \"Tom Cruise\",\n\t\t\t\"age\": 56,\n\t\t\t\"born_at\": \"Syracuse, NY\",\n\t\t\t\"birthdate\": \"July 3, 1962\",\n\t\t\t\"photo\": \"https://jsonformatter.org/img/tom-cruise.jpg\",\n\t\t\t\"wife\": null,\n\t\t\t\"weight\": 67.5,\n\t\t\t\"has_children\": true,\n\t\t\t\"has_grey_hair\": false,\n\t\t\t\"children\": [\n\t\t\t\t\"Suri\",\n\t\t\t\t\"Isabella Jane\",\n\t\t\t\t\"Connor\"\n\t\t\t],\n\t\t\t\"icon\": \"🤩\"\n\t\t},\n\t\t{\n\t\t\t\"name\": \"Robert Downey Jr.\",\n\t\t\t\"age\": 53,\n\t\t\t\"born_at\": \"New York City, NY\",\n\t\t\t\"birthdate\": \"April 4, 1965\",\n\t\t\t\"photo\": \"https://jsonformatter.org/img/Robert-Downey-Jr.jpg\",\n\t\t\t\"wife\": {\n\t\t\t\t\"name\": \"Susan Downey\",\n\t\t\t\t\"age\": 35\n\t\t\t},\n\t\t\t\"weight\": 77.1,\n\t\t\t\"has_children\": true,\n\t\t\t\"has_grey_hair\": false,\n\t\t\t\"children\": [\n\t\t\t\t\"Indio Falconer\",\n\t\t\t\t\"Avri Roel\",\n\t\t\t\t\"Exton Elias\"\n\t\t\t]\n\t\t}\n\t]\n}";
    let d = digest(&parse(data).unwrap()).unwrap();
    assert_eq!(d.alg, "sha256");
    assert_eq!(
        d.val,
        "f35a55c7bba2df8438802603db442976a8238ceb0a610d1eea38cae1b9fd9013"
    );
}

#[test]
fn floats() {
    let cases = [
        ("0.0", "0.0E0"),
        ("0", "0"),
        ("0.05", "5.0E-2"),
        ("1e2", "1.0E2"),
        ("1E+2", "1.0E2"),
        ("1.0", "1.0E0"),
        ("-1.5e-7", "-1.5E-7"),
        ("1e21", "1.0E21"),
        ("123456789012345678901234", "1.2345678901234569E23"),
        ("123456789012345678901234.0", "1.2345678901234569E23"),
        ("0.1", "1.0E-1"),
        ("2.5e-300", "2.5E-300"),
        ("1.7976931348623157e308", "1.7976931348623157E308"),
        ("5e-324", "5.0E-324"),
        ("-0", "0"),
        ("-0.0", "-0.0E0"),
        ("100", "100"),
        ("-42", "-42"),
        ("9223372036854775807", "9223372036854775807"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775808", "9.223372036854776E18"),
        ("-9223372036854775809", "-9.223372036854776E18"),
        ("1.10", "1.1E0"),
        ("67.5", "6.75E1"),
        ("0.000001", "1.0E-6"),
    ];
    for (input, want) in cases {
        assert_eq!(canonical_number(input).unwrap(), want, "literal {input}");
        assert_eq!(canon(input), want, "document {input}");
    }
}

#[test]
fn out_of_range_numbers_fail() {
    for n in ["1e400", "-1e400", "123e99999"] {
        assert!(canonical(&parse(n).unwrap()).is_err(), "{n}");
    }
    assert!(canonical(&Value::Number("1.".into())).is_err());
}

#[test]
fn nulls_removed_from_objects_only() {
    assert_eq!(
        canon(r#"{"a":null,"b":[null,1,null],"c":{"d":null}}"#),
        r#"{"b":[null,1,null],"c":{}}"#
    );
    assert_eq!(canon("null"), "null");
    assert_eq!(canon("[null]"), "[null]");
}

#[test]
fn booleans_and_nesting() {
    assert_eq!(
        canon(" [ true , false , [ ] , { } ] "),
        "[true,false,[],{}]"
    );
}

#[test]
fn string_escapes() {
    assert_eq!(canon(r#""\"\\\/\b\f\n\r\t""#), r#""\"\\/\b\f\n\r\t""#);
    // Every control character without a short escape becomes \u00XX, uppercase hex.
    for c in 0u32..0x20 {
        let ch = char::from_u32(c).unwrap();
        let expected = match ch {
            '\u{8}' => "\"\\b\"".to_owned(),
            '\t' => "\"\\t\"".to_owned(),
            '\n' => "\"\\n\"".to_owned(),
            '\u{c}' => "\"\\f\"".to_owned(),
            '\r' => "\"\\r\"".to_owned(),
            _ => format!("\"\\u{c:04X}\""),
        };
        assert_eq!(canon(&format!("\"\\u{c:04x}\"")), expected, "U+{c:04X}");
    }
    assert_eq!(canon(r#""\u001f\u001A""#), r#""\u001F\u001A""#);
    // DEL and everything above is written raw.
    assert_eq!(canon(r#""\u007f""#), "\"\u{7f}\"");
}

#[test]
fn unicode_kept_raw() {
    assert_eq!(
        canon(r#""<a href=\"x\">&amp;</a>""#),
        r#""<a href=\"x\">&amp;</a>""#
    );
    assert_eq!(canon(r#""\u00e9\u4e2d\ud83e\udd29""#), "\"é中🤩\"");
    assert_eq!(canon("\"é中🤩\u{2028}\""), "\"é中🤩\u{2028}\"");
}

#[test]
fn keys_sorted_by_utf8_bytes() {
    // 'Z' (0x5A) < '_' < 'a' < 'z' (0x7A) < 'é' (0xC3 0xA9) < '中' < U+FFFD-range < '🤩' (0xF0..)
    let input = r#"{"🤩":1,"é":2,"z":3,"Z":4,"a":5,"_":6,"中":7,"\ufb01":8,"":9,"aa":10}"#;
    assert_eq!(
        canon(input),
        r#"{"":9,"Z":4,"_":6,"a":5,"aa":10,"z":3,"é":2,"中":7,"ﬁ":8,"🤩":1}"#
    );
    // UTF-16 order would put U+FB01 after U+1F929 (surrogates 0xD83E < 0xFB01); UTF-8 order does not.
}

#[test]
fn amounts_are_strings_hashed_as_written() {
    let a = digest(&parse(r#"{"sum":"90.00"}"#).unwrap()).unwrap();
    let b = digest(&parse(r#"{"sum":"90.0"}"#).unwrap()).unwrap();
    assert_ne!(a, b);
    // Whitespace and key order do not change a digest.
    let c = digest(&parse("{ \"b\": 1,\n \"a\": [1.50] }").unwrap()).unwrap();
    let d = digest(&parse(r#"{"a":[1.5],"b":1}"#).unwrap()).unwrap();
    assert_eq!(c, d);
}

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples")
}

/// Every `examples/*/out/*.json` file, sorted; `None` when the reference folder is absent.
fn example_outputs() -> Option<Vec<PathBuf>> {
    let root = examples_dir();
    let countries = std::fs::read_dir(&root).ok()?;
    let mut files = Vec::new();
    for country in countries.flatten() {
        let Ok(outs) = std::fs::read_dir(country.path().join("out")) else {
            continue;
        };
        files.extend(
            outs.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json")),
        );
    }
    files.sort();
    Some(files)
}

#[test]
fn reference_example_digests() {
    let Some(files) = example_outputs() else {
        println!(
            "skipped: no reference examples at {}",
            examples_dir().display()
        );
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let envelope = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc = envelope.get("doc").expect("doc");
        let want = envelope
            .get("head")
            .and_then(|h| h.get("dig"))
            .and_then(|d| d.get("val"))
            .and_then(Value::as_str);
        let got = digest(doc).unwrap();
        if Some(got.val.as_str()) != want {
            failures.push(format!(
                "{}: want {want:?}, got {}",
                path.display(),
                got.val
            ));
        }
        checked += 1;
    }
    println!("checked {checked} reference example digests");
    assert!(
        failures.is_empty(),
        "digest mismatches:\n{}",
        failures.join("\n")
    );
    assert!(
        checked > 0,
        "examples folder present but no out/*.json files"
    );
}
