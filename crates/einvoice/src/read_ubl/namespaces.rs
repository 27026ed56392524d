//! Namespace scopes: the URI a prefix stands for at each element. Kept here rather than by
//! quick-xml's namespace reader because the attribute scan finds the declarations anyway, and
//! an invoice declares its few namespaces once, on the root.

use super::tags::Ns;
use crate::xml_names::same_prefix;

/// A declaration: its prefix, its URI and the namespace that URI names (found once here rather
/// than by comparing the URI at every element), and the depth of the element making it.
type Binding<'i> = (&'i str, &'i str, Ns, usize);

/// The declarations in force, innermost last.
#[derive(Default)]
pub(super) struct Namespaces<'i> {
    bindings: Vec<Binding<'i>>,
}

impl<'i> Namespaces<'i> {
    /// `prefix` (empty for the default namespace) stands for `uri` inside the element at
    /// `depth`.
    pub(super) fn declare(&mut self, prefix: &'i str, uri: &'i str, depth: usize) {
        self.bindings.push((prefix, uri, Ns::of(uri), depth));
    }

    /// The URI of a prefix (empty for the default namespace); `None` when unbound, or when
    /// the default namespace is undeclared (`xmlns=""`).
    pub(super) fn resolve(&self, prefix: &str) -> Option<&'i str> {
        self.binding(prefix).map(|(_, uri, _, _)| *uri)
    }

    /// The namespace of a prefix, `None` as for [`Self::resolve`].
    pub(super) fn resolve_ns(&self, prefix: &str) -> Option<Ns> {
        self.binding(prefix).map(|(_, _, ns, _)| *ns)
    }

    /// The declaration in force for `prefix`, unless it undeclares the default namespace.
    fn binding(&self, prefix: &str) -> Option<&Binding<'i>> {
        let b = self
            .bindings
            .iter()
            .rev()
            .find(|(p, _, _, _)| same_prefix(p, prefix))?;
        (!b.1.is_empty()).then_some(b)
    }

    /// The element at `depth` ends: its declarations go out of scope.
    pub(super) fn leave(&mut self, depth: usize) {
        while self.bindings.last().is_some_and(|(_, _, _, d)| *d == depth) {
            self.bindings.pop();
        }
    }
}
