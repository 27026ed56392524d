//! Elements of AEAT's `SuministroInformacion` namespace, written with its `sum1` prefix.

use crate::xml::Xml;

/// The [`Xml`] writer with every element name in the `sum1` namespace.
pub(crate) struct Sum1<'a>(pub &'a mut Xml);

impl Sum1<'_> {
    /// `<sum1:name>text</sum1:name>`.
    pub(crate) fn text(&mut self, name: &str, text: &str) {
        self.0.text(&format!("sum1:{name}"), text);
    }

    /// `<sum1:name>text</sum1:name>` when there is a non-empty text.
    pub(crate) fn opt(&mut self, name: &str, text: Option<&str>) {
        self.0.opt(&format!("sum1:{name}"), text);
    }

    /// `<sum1:name>` … `</sum1:name>` around what `body` writes.
    pub(crate) fn group(&mut self, name: &str, body: impl FnOnce(&mut Sum1)) {
        let tag = format!("sum1:{name}");
        self.0.open(&tag);
        body(&mut Sum1(self.0));
        self.0.close(&tag);
    }
}
