//! What the writers of `Fa`'s parts share, apart from `fa.rs` which calls them: they take the
//! context from here and never import their caller.

use gobl::model::Invoice;

use super::format::Sign;

/// What the parts of `Fa` share: the invoice, its FA(3) type and the sign of amounts.
pub(crate) struct Ctx<'a> {
    pub(crate) inv: &'a Invoice,
    pub(crate) kind: String,
    pub(crate) sign: Sign,
}
