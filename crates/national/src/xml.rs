//! A small indented XML writer: the formats here are fixed trees of elements with text,
//! written in schema order by the caller. Text is escaped with quick-xml (quotes only in
//! attributes).

use quick_xml::escape::{escape, partial_escape};

/// An XML document being written, one element per line, indented with tabs.
pub(crate) struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    /// A document starting with the XML declaration.
    pub(crate) fn new() -> Xml {
        Xml {
            out: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
            depth: 0,
        }
    }

    /// A fragment written at `depth`, to be appended to a document once it is known to
    /// hold something.
    pub(crate) fn fragment(depth: usize) -> Xml {
        Xml {
            out: String::new(),
            depth,
        }
    }

    /// The current nesting depth.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Whether nothing was written.
    pub(crate) fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Append a fragment written at this document's depth.
    pub(crate) fn append(&mut self, fragment: Xml) {
        self.out.push_str(&fragment.out);
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push('\t');
        }
    }

    /// Open `<name attr="value" …>`.
    pub(crate) fn open_with(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push_str(&format!(" {k}=\"{}\"", escape(*v)));
        }
        self.out.push_str(">\n");
        self.depth += 1;
    }

    /// Open `<name>`.
    pub(crate) fn open(&mut self, name: &str) {
        self.open_with(name, &[]);
    }

    /// Close `</name>`.
    pub(crate) fn close(&mut self, name: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        self.out.push_str(&format!("</{name}>\n"));
    }

    /// `<name>text</name>`.
    pub(crate) fn text(&mut self, name: &str, text: &str) {
        self.indent();
        self.out
            .push_str(&format!("<{name}>{}</{name}>\n", partial_escape(text)));
    }

    /// `<name attr="value" …>text</name>`.
    pub(crate) fn text_with(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push_str(&format!(" {k}=\"{}\"", escape(*v)));
        }
        self.out
            .push_str(&format!(">{}</{name}>\n", partial_escape(text)));
    }

    /// `<name>text</name>` when there is a non-empty text.
    pub(crate) fn opt(&mut self, name: &str, text: Option<&str>) {
        if let Some(t) = text.filter(|t| !t.is_empty()) {
            self.text(name, t);
        }
    }

    /// `<name>` … `</name>` around what `body` writes.
    pub(crate) fn group(&mut self, name: &str, body: impl FnOnce(&mut Xml)) {
        self.open(name);
        body(self);
        self.close(name);
    }

    /// Text written as it is, on lines of its own: an element written (and perhaps signed)
    /// elsewhere, whose bytes must not change.
    pub(crate) fn raw(&mut self, text: &str) {
        self.out.push_str(text);
        if !text.ends_with('\n') {
            self.out.push('\n');
        }
    }

    /// The document.
    pub(crate) fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nests_indents_and_escapes() {
        let mut x = Xml::new();
        x.open_with("p:A", &[("v", "a\"b")]);
        x.group("B", |x| {
            x.text("C", "1 < 2 & 3");
            x.opt("D", Some(""));
            x.opt("E", None);
        });
        x.close("p:A");
        let s = x.finish();
        assert!(s.contains(
            "<p:A v=\"a&quot;b\">\n\t<B>\n\t\t<C>1 &lt; 2 &amp; 3</C>\n\t</B>\n</p:A>\n"
        ));
        assert!(!s.contains("<D>") && !s.contains("<E>"));
    }
}
