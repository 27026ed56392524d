//! BT-125's attached document, as the fast readers (`read_ubl`, `read_cii`) take it: strict
//! base64 (RFC 4648 §4, padded, canonical) with white space between the characters. The
//! `en16931-formats` reader skips what is not base64 and stops at the first `=`; only a
//! well-formed text, which both read to the same bytes, is taken here.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// The bytes of a strict base64 text, white space aside; `None` for anything else.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    let compact: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '\n' | '\r'))
        .collect();
    STANDARD.decode(compact).ok()
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_rfc_4648_and_refuses_the_rest() {
        for (encoded, plain) in [
            ("", &b""[..]),
            ("Zg==", b"f"),
            ("Zm8=", b"fo"),
            ("Zm9v", b"foo"),
            ("Zm9v\n YmFy", b"foobar"),
        ] {
            assert_eq!(decode(encoded).as_deref(), Some(plain), "{encoded}");
        }
        for bad in ["Zg=", "Zm9v!", "Zg==Zg==", "Z===", "Zm9"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
