//! silo/v1's operations served for a [`Wire`]: each is v1's `#[utoipa::path]` moved to the
//! version's prefix, answered by v1's handler over the version's shapes. A later version's
//! document is v1's with its prefix, operation ids and schemas (what `W::schemas` names) put
//! in place, so the documented and the served paths are the same list.

use std::marker::PhantomData;

use axum::handler::Handler;
use axum::routing::MethodRouter;
use serde_json::Value;
use utoipa::__dev::{SchemaReferences, Tags};
use utoipa::Path;
use utoipa::openapi::OpenApi;
use utoipa::openapi::path::Paths;
use utoipa_axum::PathItemExt;
use utoipa_axum::router::OpenApiRouter;

use super::wire::{V1, Wire};

/// The operations of one version, collected.
pub(crate) struct Operations<W> {
    router: OpenApiRouter,
    wire: PhantomData<W>,
}

impl<W: Wire> Operations<W> {
    pub(crate) fn new() -> Self {
        Operations {
            router: OpenApiRouter::new(),
            wire: PhantomData,
        }
    }

    /// Adds the operation `D` documents (a `#[utoipa::path]`'s struct), answered by `handler`:
    /// what `utoipa_axum::routes!` does, at this version's path.
    pub(crate) fn add<D, H, T>(mut self, handler: H) -> Self
    where
        D: Path + SchemaReferences + for<'t> Tags<'t>,
        H: Handler<T, ()>,
        T: 'static,
    {
        let path = D::path().replacen(V1::PREFIX, W::PREFIX, 1);
        let methods = D::methods();
        let mut operation = D::operation();
        let tags = D::tags();
        if !tags.is_empty() {
            let own = operation.tags.get_or_insert(Vec::new());
            own.extend(tags.iter().map(ToString::to_string));
        }
        let mut schemas = Vec::new();
        D::schemas(&mut schemas);
        let router = methods.iter().fold(MethodRouter::new(), |router, method| {
            router.on(method.to_method_filter(), handler.clone())
        });
        let mut paths = Paths::new();
        paths.add_path_operation(&path, methods, operation);
        self.router = self.router.routes((schemas, paths, router));
        self
    }

    /// The routes, documented as v1's at this version's paths (see [`finish`]).
    pub(crate) fn routes(self) -> OpenApiRouter {
        self.router
    }
}

/// A version's routes with its own document.
pub(crate) fn finish<W: Wire>(mut router: OpenApiRouter) -> OpenApiRouter {
    if W::PREFIX != V1::PREFIX {
        let doc = std::mem::take(router.get_openapi_mut());
        *router.get_openapi_mut() = retarget::<W>(doc);
    }
    router
}

/// v1's document as version `W`'s: `/silo/v1/` and `silo.v1.` in every text (paths, ids,
/// descriptions) read as `W`'s, and `W`'s schemas in place of those they replace.
fn retarget<W: Wire>(mut doc: OpenApi) -> OpenApi {
    let version = W::PREFIX.trim_start_matches('/').replace('/', ".");
    let components = W::schemas();
    let at = "#/components/schemas/";
    let renames: Vec<(String, String)> = components
        .iter()
        .filter_map(|c| {
            c.replaces
                .map(|old| (format!("{at}{old}"), format!("{at}{}", c.name)))
        })
        .collect();
    let schemas = &mut doc.components.get_or_insert_default().schemas;
    for component in components {
        if let Some(old) = component.replaces {
            schemas.remove(old);
        }
        schemas.insert(component.name.to_string(), component.schema);
    }
    let text = |s: &str| -> String {
        if let Some((_, new)) = renames.iter().find(|(old, _)| old == s) {
            return new.clone();
        }
        s.replace(&format!("{}/", V1::PREFIX), &format!("{}/", W::PREFIX))
            .replace("silo.v1.", &format!("{version}."))
    };
    let mut value = serde_json::to_value(doc).expect("an OpenAPI document serialises");
    rewrite(&mut value, &text);
    serde_json::from_value(value).expect("a rewritten OpenAPI document reads back")
}

/// Rewrites every string and object key of `value` with `text`.
fn rewrite(value: &mut Value, text: &impl Fn(&str) -> String) {
    match value {
        Value::String(s) => *s = text(s),
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, text)),
        Value::Object(members) => {
            let old = std::mem::take(members);
            for (key, mut member) in old {
                rewrite(&mut member, text);
                members.insert(text(&key), member);
            }
        }
        _ => {}
    }
}

/// [`Operations`] of handlers in scope, each with its `#[utoipa::path]`; `handler<W>` for a
/// handler generic over the version's [`Wire`].
macro_rules! operations {
    ($w:ty; $($handler:ident $(<$g:ty>)?),+ $(,)?) => {{
        let ops = $crate::v1::operations::Operations::<$w>::new();
        $(
            let ops = utoipa_axum::paste! {
                ops.add::<[<__path_ $handler>], _, _>($handler $(::<$g>)?)
            };
        )+
        ops.routes()
    }};
}
pub(crate) use operations;
