//! A basic value's text and attributes, read into the model's types. The text is trimmed as
//! the general reader trims it; a value it would read as absent or report as malformed is
//! `None` here, and refuses the document.

use en16931::invoice::{Code, InvoiceNote};
use en16931::{Date, Identifier, InvoiceAmount};
use rust_decimal::Decimal;

use super::syntax::Attrs;

/// One basic value: its text (never blank) and the attributes its handler takes.
pub(super) struct Value<'v, 'i> {
    text: &'v str,
    attrs: &'v mut Attrs<'i>,
}

impl<'v, 'i> Value<'v, 'i> {
    pub(super) fn new(text: &'v str, attrs: &'v mut Attrs<'i>) -> Self {
        Value { text, attrs }
    }

    /// The text as written, untrimmed (BT-20 keeps its line ends).
    pub(super) fn raw(&self) -> &str {
        self.text
    }

    /// The text, trimmed.
    pub(super) fn str(&self) -> &str {
        self.text.trim()
    }

    pub(super) fn string(&self) -> String {
        self.str().to_owned()
    }

    pub(super) fn code(&self) -> Code {
        Code::new(self.str())
    }

    /// A date as `YYYY-MM-DD`; a time zone (`xs:date` allows one) is left to the general
    /// reader.
    pub(super) fn date(&self) -> Option<Date> {
        let text = self.str();
        (text.len() == 10).then(|| Date::parse(text).ok()).flatten()
    }

    /// An amount of the document (two decimals at most); its `currencyID` is the document's.
    pub(super) fn amount(&mut self) -> Option<InvoiceAmount> {
        self.attrs.currency = None;
        InvoiceAmount::parse(self.str()).ok()
    }

    /// A unit price, any precision; its `currencyID` is the document's.
    pub(super) fn unit_price(&mut self) -> Option<Decimal> {
        self.attrs.currency = None;
        self.decimal()
    }

    /// A decimal: a quantity, a percentage.
    pub(super) fn decimal(&self) -> Option<Decimal> {
        self.str().parse().ok()
    }

    /// `xs:boolean`.
    pub(super) fn boolean(&self) -> Option<bool> {
        match self.str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        }
    }

    /// An identifier with its `schemeID`.
    pub(super) fn identifier(&mut self) -> Identifier {
        let scheme = self.attrs.scheme.take();
        self.schemed(scheme)
    }

    /// An identifier with the scheme given.
    pub(super) fn schemed(&self, scheme: Option<std::borrow::Cow<'_, str>>) -> Identifier {
        match scheme {
            Some(scheme) => Identifier::schemed(self.str(), scheme),
            None => Identifier::new(self.str()),
        }
    }

    /// The attributes, for a handler that takes one of them.
    pub(super) fn attrs(&mut self) -> &mut Attrs<'i> {
        self.attrs
    }
}

/// An invoice note. UBL carries its subject (BT-21) inside the text, `#AAI#the note`: a
/// three-letter subject between two leading `#`.
pub(super) fn note(text: &str) -> InvoiceNote {
    let subject = text
        .strip_prefix('#')
        .and_then(|rest| rest.split_once('#'))
        .filter(|(subject, _)| subject.len() == 3);
    match subject {
        Some((subject, body)) => InvoiceNote {
            subject_code: Some(Code::new(subject)),
            note: Some(body.to_owned()),
        },
        None => InvoiceNote::new(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_may_carry_its_subject() {
        let n = note("#AAI#the text");
        assert_eq!(n.subject_code.as_ref().map(Code::as_str), Some("AAI"));
        assert_eq!(n.note.as_deref(), Some("the text"));
        assert_eq!(note("#AAAI#x").note.as_deref(), Some("#AAAI#x"));
        assert_eq!(note("plain").note.as_deref(), Some("plain"));
    }
}
