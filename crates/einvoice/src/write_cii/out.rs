//! The text being written: one `String`, indented two spaces a level, one element a line,
//! as `en16931-formats` lays out its documents.
//!
//! A group's start tag waits until its first child is written, so a group left empty
//! writes nothing (the crate prunes empty aggregates); a required group left empty
//! writes `<name/>`.

use std::fmt::{Display, Write as _};

use en16931::Date;

/// Enough spaces for the deepest element CII nests, two a level.
const SPACES: &str = "                                                ";

/// The CII namespaces the document element declares, in the crate's order.
const NAMESPACES: [(&str, &str); 4] = [
    (
        "rsm",
        "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    ),
    (
        "ram",
        "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    ),
    (
        "udt",
        "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
    ),
    (
        "qdt",
        "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
    ),
];

const ROOT: &str = "rsm:CrossIndustryInvoice";

/// An open group: its name, and whether it must be written even when empty.
struct Open {
    name: &'static str,
    required: bool,
}

/// A CII document under construction.
pub(super) struct Out {
    xml: String,
    /// The groups open below the document element, outermost first.
    open: Vec<Open>,
    /// How many of `open` have their start tag written (always the outermost ones).
    started: usize,
    /// A character XML 1.0 cannot carry was met; the crate drops it and says so.
    unwritable: bool,
}

impl Out {
    /// The declaration and the document element's start tag.
    pub(super) fn new(capacity: usize) -> Self {
        let mut xml = String::with_capacity(capacity);
        xml.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<");
        xml.push_str(ROOT);
        for (prefix, ns) in NAMESPACES {
            xml.push_str(" xmlns:");
            xml.push_str(prefix);
            xml.push_str("=\"");
            xml.push_str(ns);
            xml.push('"');
        }
        xml.push_str(">\n");
        Self {
            xml,
            open: Vec::with_capacity(12),
            started: 0,
            unwritable: false,
        }
    }

    /// The document, or `None` when a value held a character XML cannot carry.
    pub(super) fn finish(mut self) -> Option<String> {
        if self.unwritable || !self.open.is_empty() {
            return None;
        }
        self.xml.push_str("</");
        self.xml.push_str(ROOT);
        self.xml.push_str(">\n");
        Some(self.xml)
    }

    /// `f`'s elements inside `name`; nothing at all when `f` writes none.
    pub(super) fn group(&mut self, name: &'static str, f: impl FnOnce(&mut Self)) {
        self.open.push(Open {
            name,
            required: false,
        });
        f(self);
        self.close();
    }

    /// [`Out::group`], written as `<name/>` when `f` writes nothing.
    pub(super) fn required(&mut self, name: &'static str, f: impl FnOnce(&mut Self)) {
        self.open.push(Open {
            name,
            required: true,
        });
        f(self);
        self.close();
    }

    fn close(&mut self) {
        let Some(group) = self.open.pop() else {
            return;
        };
        let depth = self.open.len() + 1;
        if self.started > self.open.len() {
            self.started = self.open.len();
            self.indent(depth);
            self.xml.push_str("</");
            self.xml.push_str(group.name);
            self.xml.push_str(">\n");
        } else if group.required {
            self.start_open_groups();
            self.indent(depth);
            self.xml.push('<');
            self.xml.push_str(group.name);
            self.xml.push_str("/>\n");
        }
    }

    /// Writes the start tags still owed, since a child is about to be written.
    fn start_open_groups(&mut self) {
        while self.started < self.open.len() {
            let name = self.open[self.started].name;
            self.started += 1;
            self.indent(self.started);
            self.xml.push('<');
            self.xml.push_str(name);
            self.xml.push_str(">\n");
        }
    }

    fn indent(&mut self, depth: usize) {
        match SPACES.get(..2 * depth) {
            Some(s) => self.xml.push_str(s),
            None => (0..depth).for_each(|_| self.xml.push_str("  ")),
        }
    }

    /// `<name attrs>` for a leaf, its ancestors started first.
    fn start_leaf(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.start_open_groups();
        self.indent(self.open.len() + 1);
        self.xml.push('<');
        self.xml.push_str(name);
        for (key, value) in attrs {
            self.xml.push(' ');
            self.xml.push_str(key);
            self.xml.push_str("=\"");
            self.escaped(value, true);
            self.xml.push('"');
        }
        self.xml.push('>');
    }

    fn end_leaf(&mut self, name: &str) {
        self.xml.push_str("</");
        self.xml.push_str(name);
        self.xml.push_str(">\n");
    }

    /// `<name>text</name>`, the text escaped.
    pub(super) fn leaf(&mut self, name: &str, text: &str) {
        self.leaf_with(name, &[], text);
    }

    /// `<name attrs>text</name>`, text and attribute values escaped.
    pub(super) fn leaf_with(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.start_leaf(name, attrs);
        self.escaped(text, false);
        self.end_leaf(name);
    }

    /// `<name attrs>value</name>` for a number, whose spelling needs no escaping.
    pub(super) fn number_with(&mut self, name: &str, attrs: &[(&str, &str)], value: impl Display) {
        self.start_leaf(name, attrs);
        let _ = write!(self.xml, "{value}");
        self.end_leaf(name);
    }

    /// [`Out::number_with`] without attributes.
    pub(super) fn number(&mut self, name: &str, value: impl Display) {
        self.number_with(name, &[], value);
    }

    /// `<wrapper><element format="102">CCYYMMDD</element></wrapper>`, the only date
    /// format EN 16931 allows in CII.
    pub(super) fn date(&mut self, wrapper: &'static str, element: &str, d: Date) {
        self.group(wrapper, |x| {
            x.start_leaf(element, &[("format", "102")]);
            let _ = write!(x.xml, "{:04}{:02}{:02}", d.year(), d.month(), d.day());
            x.end_leaf(element);
        });
    }

    /// Appends `s` escaped as the crate escapes it: the five metacharacters and a carriage
    /// return as references, and in an attribute a tab and a line feed too. A character
    /// XML 1.0 cannot carry marks the document unwritable.
    fn escaped(&mut self, s: &str, attribute: bool) {
        if !crate::xml_escape::escape_into(&mut self.xml, s, attribute) {
            self.unwritable = true;
        }
    }
}
