//! Text and attribute values as folio's XML writers write them (`write_ubl`, `write_cii`): the
//! five predefined entities, a carriage return as `&#13;`, and in attributes a tab and a line
//! feed as references too, as `en16931-formats` writes them.

/// Appends `text` to `out`, escaped; false when it holds a character XML cannot carry (a
/// control character other than tab, line feed and carriage return, U+FFFE, U+FFFF), which
/// is then left out: the caller gives the document up.
pub(crate) fn escape_into(out: &mut String, text: &str, attribute: bool) -> bool {
    let bytes = text.as_bytes();
    let mut writable = true;
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let reference = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&apos;",
            b'\r' => "&#13;",
            b'\t' if attribute => "&#9;",
            b'\n' if attribute => "&#10;",
            b'\t' | b'\n' => continue,
            0..0x20 => {
                writable = false;
                continue;
            }
            // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
            0xEF if matches!(bytes.get(i + 1..i + 3), Some([0xBF, 0xBE | 0xBF])) => {
                writable = false;
                continue;
            }
            _ => continue,
        };
        // `i` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&text[from..i]);
        out.push_str(reference);
        from = i + 1;
    }
    out.push_str(&text[from..]);
    writable
}
