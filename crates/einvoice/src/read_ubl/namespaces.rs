//! Namespace scopes: the URI a prefix stands for at each element. Kept here rather than by
//! quick-xml's namespace reader because the attribute scan finds the declarations anyway, and
//! an invoice declares its few namespaces once, on the root.

use crate::xml_names::same_prefix;

/// The declarations in force, innermost last, each with the depth of the element making it.
#[derive(Default)]
pub(super) struct Namespaces<'i> {
    bindings: Vec<(&'i str, &'i str, usize)>,
}

impl<'i> Namespaces<'i> {
    /// `prefix` (empty for the default namespace) stands for `uri` inside the element at
    /// `depth`.
    pub(super) fn declare(&mut self, prefix: &'i str, uri: &'i str, depth: usize) {
        self.bindings.push((prefix, uri, depth));
    }

    /// The URI of a prefix (empty for the default namespace); `None` when unbound, or when
    /// the default namespace is undeclared (`xmlns=""`).
    pub(super) fn resolve(&self, prefix: &str) -> Option<&'i str> {
        let (_, uri, _) = self
            .bindings
            .iter()
            .rev()
            .find(|(p, _, _)| same_prefix(p, prefix))?;
        (!uri.is_empty()).then_some(*uri)
    }

    /// The element at `depth` ends: its declarations go out of scope.
    pub(super) fn leave(&mut self, depth: usize) {
        while self.bindings.last().is_some_and(|(_, _, d)| *d == depth) {
            self.bindings.pop();
        }
    }
}
