//! Namespace scopes: the URI a prefix stands for at each element. Kept here rather than by
//! quick-xml's namespace reader because the attribute scan finds the declarations anyway, and
//! an invoice declares its few namespaces once, on the root.

use super::tags::Ns;
use crate::xml_names::same_prefix;

/// A declaration in force.
struct Binding<'i> {
    prefix: &'i str,
    uri: &'i str,
    /// The namespace `uri` names, found once here rather than by comparing the URI at every
    /// element.
    ns: Ns,
    /// The depth of the element making the declaration.
    depth: usize,
}

/// The declarations in force, innermost last.
#[derive(Default)]
pub(super) struct Namespaces<'i> {
    bindings: Vec<Binding<'i>>,
}

impl<'i> Namespaces<'i> {
    /// `prefix` (empty for the default namespace) stands for `uri` inside the element at
    /// `depth`.
    pub(super) fn declare(&mut self, prefix: &'i str, uri: &'i str, depth: usize) {
        self.bindings.push(Binding {
            prefix,
            uri,
            ns: Ns::of(uri),
            depth,
        });
    }

    /// The URI of a prefix (empty for the default namespace); `None` when unbound, or when
    /// the default namespace is undeclared (`xmlns=""`).
    pub(super) fn resolve(&self, prefix: &str) -> Option<&'i str> {
        self.binding(prefix).map(|b| b.uri)
    }

    /// The namespace of a prefix, `None` as for [`Self::resolve`].
    pub(super) fn resolve_ns(&self, prefix: &str) -> Option<Ns> {
        self.binding(prefix).map(|b| b.ns)
    }

    /// The declaration in force for `prefix`, unless it undeclares the default namespace.
    fn binding(&self, prefix: &str) -> Option<&Binding<'i>> {
        let b = self
            .bindings
            .iter()
            .rev()
            .find(|b| same_prefix(b.prefix, prefix))?;
        (!b.uri.is_empty()).then_some(b)
    }

    /// The element at `depth` ends: its declarations go out of scope.
    pub(super) fn leave(&mut self, depth: usize) {
        while self.bindings.last().is_some_and(|b| b.depth == depth) {
            self.bindings.pop();
        }
    }
}
