//! BER → DER for `.p7m` files written by streaming signers (`openssl cms -stream`, many
//! signing tools): indefinite lengths become definite, a constructed OCTET STRING (content
//! in chunks) one primitive string. Enough for the `der` crate to read SignedData; the
//! signed attributes are DER already (CMS requires it), so signatures still verify.
//! Also: the signed attributes of each signer exactly as encoded, since the `der` crate
//! sorts a SET OF when it decodes one and a signer may not have.

/// How deep constructed values may nest.
const MAX_DEPTH: usize = 64;

const OCTET_STRING: u8 = 0x04;
const CONSTRUCTED: u8 = 0x20;

/// The DER form of a BER value, `None` when it is not well-formed BER (or nests too deep).
pub(crate) fn to_der(ber: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(ber.len());
    let used = value(ber, 0, &mut out)?;
    (used == ber.len()).then_some(out)
}

/// Convert the value at the start of `input` into `out`; the bytes it used.
fn value(input: &[u8], depth: usize, out: &mut Vec<u8>) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    let tag_len = tag_length(input)?;
    let tag = &input[..tag_len];
    let (len, len_len) = length(input.get(tag_len..)?)?;
    let start = tag_len + len_len;
    let constructed = tag[0] & CONSTRUCTED != 0;
    if !constructed {
        let len = len?;
        let body = input.get(start..start.checked_add(len)?)?;
        write_tlv(out, tag, body);
        return Some(start + len);
    }
    // A constructed OCTET STRING is written as the primitive string of its pieces.
    let flatten = tag_len == 1 && tag[0] == OCTET_STRING | CONSTRUCTED;
    let mut body = Vec::new();
    let end = children(input, start, len, depth, &mut body)?;
    if flatten {
        let mut bytes = Vec::new();
        primitive_contents(&body, &mut bytes)?;
        write_tlv(out, &[OCTET_STRING], &bytes);
    } else {
        write_tlv(out, tag, &body);
    }
    Some(end)
}

/// The children of a constructed value (definite `len`, or up to the end-of-contents
/// marker); where the value ends.
fn children(
    input: &[u8],
    start: usize,
    len: Option<usize>,
    depth: usize,
    body: &mut Vec<u8>,
) -> Option<usize> {
    let mut at = start;
    match len {
        Some(len) => {
            let end = start.checked_add(len)?;
            let inner = input.get(..end)?;
            while at < end {
                at += value(inner.get(at..)?, depth + 1, body)?;
            }
            Some(end)
        }
        None => loop {
            let rest = input.get(at..)?;
            if rest.starts_with(&[0, 0]) {
                return Some(at + 2);
            }
            at += value(rest, depth + 1, body)?;
        },
    }
}

/// The contents of the (DER, primitive) OCTET STRINGs in `der`, concatenated.
fn primitive_contents(der: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let mut at = 0;
    while at < der.len() {
        let rest = &der[at..];
        let tag_len = tag_length(rest)?;
        let (len, len_len) = length(rest.get(tag_len..)?)?;
        let len = len?;
        let start = tag_len + len_len;
        if rest[0] != OCTET_STRING {
            return None;
        }
        out.extend_from_slice(rest.get(start..start.checked_add(len)?)?);
        at += start + len;
    }
    Some(())
}

/// The elements inside a DER value's contents: (first tag byte, whole encoding).
fn elements(contents: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < contents.len() {
        let rest = &contents[at..];
        let tag_len = tag_length(rest)?;
        let (len, len_len) = length(rest.get(tag_len..)?)?;
        let end = (tag_len + len_len).checked_add(len?)?;
        out.push((rest[0], rest.get(..end)?));
        at += end;
    }
    Some(out)
}

/// The contents of one DER value.
fn contents(value: &[u8]) -> Option<&[u8]> {
    let tag_len = tag_length(value)?;
    let (_, len_len) = length(value.get(tag_len..)?)?;
    value.get(tag_len + len_len..)
}

/// For each SignerInfo of a DER ContentInfo (SignedData), its signed attributes as they
/// were encoded, re-tagged as the SET OF that was signed; `None` without attributes.
pub(crate) fn signed_attributes(der: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
    const SET: u8 = 0x31;
    const CONTEXT_0: u8 = 0xA0;
    let content_info = elements(contents(der)?)?;
    let explicit = content_info.get(1)?.1;
    let signed_data = elements(contents(explicit)?)?.first()?.1;
    let fields = elements(contents(signed_data)?)?;
    let signer_infos = fields.last().filter(|(t, _)| *t == SET)?.1;
    elements(contents(signer_infos)?)?
        .iter()
        .map(|(_, si)| {
            let parts = elements(contents(si)?)?;
            // version, sid, digestAlgorithm, then [0] signedAttrs when present
            Some(
                parts
                    .get(3)
                    .filter(|(t, _)| *t == CONTEXT_0)
                    .map(|(_, raw)| {
                        let mut set = raw.to_vec();
                        set[0] = SET;
                        set
                    }),
            )
        })
        .collect()
}

fn tag_length(input: &[u8]) -> Option<usize> {
    let first = *input.first()?;
    if first & 0x1F != 0x1F {
        return Some(1);
    }
    // High tag numbers: base-128 bytes with the top bit set, then one without.
    let more = input.get(1..)?.iter().take(8).position(|b| b & 0x80 == 0)?;
    Some(2 + more)
}

/// The length (`None` for indefinite) and how many bytes encode it.
fn length(input: &[u8]) -> Option<(Option<usize>, usize)> {
    let first = *input.first()?;
    if first < 0x80 {
        return Some((Some(first as usize), 1));
    }
    if first == 0x80 {
        return Some((None, 1));
    }
    let n = (first & 0x7F) as usize;
    if n > 4 {
        return None;
    }
    let bytes = input.get(1..1 + n)?;
    let len = bytes.iter().fold(0usize, |l, b| (l << 8) | *b as usize);
    Some((Some(len), 1 + n))
}

fn write_tlv(out: &mut Vec<u8>, tag: &[u8], body: &[u8]) {
    out.extend_from_slice(tag);
    let len = body.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indefinite_lengths_and_chunked_strings_become_der() {
        // SEQUENCE (indefinite) { OCTET STRING (constructed, indefinite) { "ab", "c" } }
        let ber = [
            0x30, 0x80, 0x24, 0x80, 0x04, 2, b'a', b'b', 0x04, 1, b'c', 0, 0, 0, 0,
        ];
        assert_eq!(to_der(&ber).unwrap(), [0x30, 5, 0x04, 3, b'a', b'b', b'c']);
        let der = [0x30, 3, 0x02, 1, 5];
        assert_eq!(to_der(&der).unwrap(), der);
    }

    #[test]
    fn malformed_input_is_refused() {
        assert!(to_der(&[0x30, 0x80, 0x04, 1, b'a']).is_none());
        assert!(to_der(&[0x30, 0x85, 1, 1, 1, 1, 1]).is_none());
        assert!(to_der(&[0x30, 5, 0x02]).is_none());
        let deep: Vec<u8> = std::iter::repeat_n([0x30u8, 0x80], 100).flatten().collect();
        assert!(to_der(&deep).is_none());
    }
}
