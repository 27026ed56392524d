//! The document under construction: one buffer, written as the crate's serialiser renders its
//! tree (two spaces a level, one element a line, a group with nothing inside left out), and a
//! flag that turns false as soon as something would make the crate report an entry.

use en16931::{Date, Identifier, InvoiceAmount};

/// Indentation for the deepest UBL levels in one slice.
const SPACES: &str = "                                ";

pub(super) struct Out {
    buf: String,
    depth: usize,
    ok: bool,
}

impl Out {
    pub fn with_capacity(bytes: usize) -> Self {
        Self {
            buf: String::with_capacity(bytes),
            depth: 0,
            ok: true,
        }
    }

    /// Something the crate would report or that this writer does not handle: the whole
    /// document falls back to the crate.
    pub fn fail(&mut self) {
        self.ok = false;
    }

    /// The document, unless something failed on the way.
    pub fn finish(self) -> Option<String> {
        self.ok.then_some(self.buf)
    }

    /// The declaration and `<Invoice xmlns="…Invoice-2" …>` (or the credit note's), the
    /// elements under it one level in.
    pub fn open_root(&mut self, root: &str, namespaces: &str) {
        self.buf
            .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<");
        self.buf.push_str(root);
        self.buf
            .push_str(" xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:");
        self.buf.push_str(root);
        self.buf.push_str("-2\"");
        self.buf.push_str(namespaces);
        self.depth = 1;
    }

    pub fn close_root(&mut self, root: &str) {
        self.depth = 0;
        self.end(root);
    }

    fn indent(&mut self) {
        let n = self.depth * 2;
        if n <= SPACES.len() {
            self.buf.push_str(&SPACES[..n]);
        } else {
            for _ in 0..self.depth {
                self.buf.push_str("  ");
            }
        }
    }

    /// `<name attr="v" …>`, without the text and the closing tag.
    fn start(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.indent();
        self.buf.push('<');
        self.buf.push_str(name);
        for (k, v) in attrs {
            self.buf.push(' ');
            self.buf.push_str(k);
            self.buf.push_str("=\"");
            self.escaped(v, true);
            self.buf.push('"');
        }
        self.buf.push('>');
    }

    fn end(&mut self, name: &str) {
        self.buf.push_str("</");
        self.buf.push_str(name);
        self.buf.push_str(">\n");
    }

    /// `<name>text</name>`, the text escaped.
    pub fn leaf(&mut self, name: &str, text: &str) {
        self.leaf_attrs(name, &[], text);
    }

    pub fn leaf_attrs(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.start(name, attrs);
        self.escaped(text, false);
        self.end(name);
    }

    /// A leaf whose text is `parts` joined: each part is escaped on its own, which is the
    /// same as escaping the whole, character by character.
    pub fn leaf_parts(&mut self, name: &str, parts: &[&str]) {
        self.start(name, &[]);
        for p in parts {
            self.escaped(p, false);
        }
        self.end(name);
    }

    /// A leaf holding a value's `Display` (decimals: nothing in them to escape).
    pub fn leaf_shown(
        &mut self,
        name: &str,
        attrs: &[(&str, &str)],
        value: impl std::fmt::Display,
    ) {
        use std::fmt::Write as _;
        self.start(name, attrs);
        let _ = write!(self.buf, "{value}");
        self.end(name);
    }

    /// An amount with its currency, two decimals as `InvoiceAmount` displays it.
    pub fn amount(&mut self, name: &str, currency: &str, a: InvoiceAmount) {
        self.start(name, &[("currencyID", currency)]);
        let units = a.to_minor_units();
        if units < 0 {
            self.buf.push('-');
        }
        let abs = units.unsigned_abs();
        self.digits(abs / 100);
        self.buf.push('.');
        let cents = (abs % 100) as u8;
        self.buf.push(char::from(b'0' + cents / 10));
        self.buf.push(char::from(b'0' + cents % 10));
        self.end(name);
    }

    /// A date, `YYYY-MM-DD` as `Date` displays it.
    pub fn date(&mut self, name: &str, d: Date) {
        self.start(name, &[]);
        match u16::try_from(d.year()) {
            Ok(y) if y <= 9999 => {
                for p in [1000, 100, 10, 1] {
                    self.buf.push(char::from(b'0' + (y / p % 10) as u8));
                }
                self.two('-', d.month());
                self.two('-', d.day());
            }
            _ => {
                use std::fmt::Write as _;
                let _ = write!(self.buf, "{d}");
            }
        }
        self.end(name);
    }

    fn two(&mut self, before: char, n: u8) {
        self.buf.push(before);
        self.buf.push(char::from(b'0' + n / 10 % 10));
        self.buf.push(char::from(b'0' + n % 10));
    }

    fn digits(&mut self, n: u64) {
        let mut tmp = [0u8; 20];
        let mut at = tmp.len();
        let mut n = n;
        loop {
            at -= 1;
            tmp[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &b in &tmp[at..] {
            self.buf.push(char::from(b));
        }
    }

    /// An identifier, with `@schemeID` and `@schemeVersionID` when it has them.
    pub fn ident(&mut self, name: &str, i: &Identifier) {
        match (i.scheme(), i.scheme_version()) {
            (None, None) => self.leaf(name, i.content()),
            (Some(s), None) => self.leaf_attrs(name, &[("schemeID", s)], i.content()),
            (None, Some(v)) => self.leaf_attrs(name, &[("schemeVersionID", v)], i.content()),
            (Some(s), Some(v)) => self.leaf_attrs(
                name,
                &[("schemeID", s), ("schemeVersionID", v)],
                i.content(),
            ),
        }
    }

    /// `<name>` around what `f` writes, or nothing at all when `f` writes nothing; whether
    /// it was written.
    pub fn group(&mut self, name: &str, f: impl FnOnce(&mut Self)) -> bool {
        let before = self.buf.len();
        self.indent();
        self.buf.push('<');
        self.buf.push_str(name);
        self.buf.push_str(">\n");
        let inside = self.buf.len();
        self.depth += 1;
        f(self);
        self.depth -= 1;
        if self.buf.len() == inside {
            self.buf.truncate(before);
            return false;
        }
        self.indent();
        self.end(name);
        true
    }

    /// Appends `s` escaped as the crate escapes text (and, for an attribute, a tab and a line
    /// feed as references). A character XML 1.0 cannot carry, which the crate drops and
    /// reports, fails the document.
    fn escaped(&mut self, s: &str, attribute: bool) {
        if !crate::xml_escape::escape_into(&mut self.buf, s, attribute) {
            self.ok = false;
        }
    }
}
