//! [`parse_members`]: a JSON object read member by member, each with the place of its value in
//! the text, so that a caller can keep one member's text as sent (a request's `data`) and hand
//! on its parsed value, where reading the text twice (once to find the member, once to parse
//! it) would cost as much again.

use std::ops::Range;

use super::{ParseError, Parser, Text, Value, is_duplicate};

/// A member of the object [`parse_members`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Its key.
    pub key: Text,
    /// Its value.
    pub value: Value,
    /// Where the value's text is (from its first byte to just after its last).
    pub span: Range<usize>,
    /// Whether every number of the value is written as serde_json writes it (see
    /// [`super::parse_noting_numbers`]).
    pub numbers_normal: bool,
}

/// Parses `text` as one JSON object, under the rules of [`super::parse`] (a duplicate key is an
/// error), and gives its members in order. Each member's value may nest `max_depth` levels, as
/// when its own text is parsed with [`super::parse_with_limit`].
pub fn parse_members(text: &str, max_depth: usize) -> Result<Vec<Member>, ParseError> {
    let mut parser = Parser::new(text, max_depth);
    let members = parser.members()?;
    parser.end()?;
    Ok(members)
}

impl Parser<'_> {
    /// The members of the object at the position (after any whitespace).
    fn members(&mut self) -> Result<Vec<Member>, ParseError> {
        self.skip_ws();
        if self.peek() != Some(b'{') {
            return self.unexpected("'{'");
        }
        self.pos += 1;
        self.skip_ws();
        let mut members: Vec<Member> = Vec::new();
        let mut seen = None;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(members);
        }
        loop {
            let key_pos = self.pos;
            let key = self.parse_key()?;
            if is_duplicate(&members, |m| &m.key, &key, &mut seen) {
                self.pos = key_pos;
                return self.err(format!("duplicate object key {key:?}"));
            }
            self.skip_ws();
            let start = self.pos;
            self.numbers_normal = true;
            let value = self.parse_value()?;
            members.push(Member {
                key,
                value,
                span: start..self.pos,
                numbers_normal: self.numbers_normal,
            });
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(members);
                }
                _ => return self.unexpected("',' or '}'"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_members;
    use crate::json::{parse_noting_numbers, parse_with_limit};

    #[test]
    fn each_member_is_its_own_text_parsed() {
        let text =
            " {\"a\" : [1, {\"b\":25}] ,\"data\":{\"x\":\"\\u00e9\", \"n\": 1e3},\"z\":null}\n";
        let members = parse_members(text, 64).unwrap();
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["a", "data", "z"]);
        for m in &members {
            let own = &text[m.span.clone()];
            let (value, normal) = parse_noting_numbers(own, 64).unwrap();
            assert_eq!(m.value, value, "{own}");
            assert_eq!(m.numbers_normal, normal, "{own}");
        }
        assert_eq!(
            &text[members[1].span.clone()],
            "{\"x\":\"\\u00e9\", \"n\": 1e3}"
        );
        assert!(members[0].numbers_normal && !members[1].numbers_normal);
        assert_eq!(parse_members("{}", 1).unwrap(), vec![]);
    }

    #[test]
    fn refuses_what_the_parser_refuses() {
        for text in [
            "[1]",
            "{\"a\":1,\"a\":2}",
            "{\"a\":1,}",
            "{\"a\":1} x",
            "{\"a\" 1}",
            "{\"a\":{\"b\":1,\"b\":2}}",
            "{\"a\":tru}",
            "{\"a\":1",
            "",
        ] {
            assert!(parse_members(text, 64).is_err(), "{text}");
        }
    }

    #[test]
    fn many_keys_are_checked_through_a_set() {
        let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\":{i}")).collect();
        let text = format!("{{{}}}", keys.join(","));
        assert_eq!(parse_members(&text, 1).unwrap().len(), 100);
        let twice = format!("{{{},\"k7\":0}}", keys.join(","));
        assert!(parse_members(&twice, 1).is_err());
    }

    #[test]
    fn the_depth_limit_is_each_value_s() {
        let text = "{\"a\":[[1]]}";
        assert!(parse_members(text, 2).is_ok());
        assert!(parse_members(text, 1).is_err());
        assert!(parse_with_limit("[[1]]", 2).is_ok());
        assert!(parse_with_limit("[[1]]", 1).is_err());
    }
}
