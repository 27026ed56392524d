//! Elements of AEAT's `SuministroInformacion` namespace, written with its `sum1` prefix.

use crate::xml::Xml;

use super::NS_SUM1;

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

/// A record as a document of its own (`RegistroAlta`, `RegistroAnulacion`), declaring the
/// namespace on itself so that it can be signed alone and then put in a submission.
pub(crate) fn record_document(name: &str, body: impl FnOnce(&mut Sum1)) -> String {
    let tag = format!("sum1:{name}");
    let mut x = Xml::new();
    x.open_with(&tag, &[("xmlns:sum1", NS_SUM1)]);
    body(&mut Sum1(&mut x));
    x.close(&tag);
    x.finish()
}
