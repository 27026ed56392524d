//! [`json!`](crate::json!): a [`Value`](super::Value) written as JSON in Rust, built directly
//! (no `serde_json` tree on the way), with `serde_json::json!`'s syntax: `null`, arrays,
//! objects whose keys are string literals, `(expressions)` or variables, and any other value
//! an expression converted with `Value::from`.
//!
//! Items and members are read token by token up to the next comma at their level; one made of
//! a single token (a literal, a variable, a nested `{...}` or `[...]`) is taken in one step,
//! which keeps the macro's recursion shallow for the usual documents.

/// Builds a [`Value`](crate::json::Value) from JSON-like syntax.
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::json::Value::Null
    };
    ([]) => {
        $crate::json::Value::Array(::std::vec::Vec::new())
    };
    ([ $($tt:tt)+ ]) => {
        $crate::json::Value::Array($crate::__json_items!(@next [] $($tt)+))
    };
    ({}) => {
        $crate::json::Value::Object($crate::json::Map::new())
    };
    ({ $($tt:tt)+ }) => {
        $crate::json::Value::Object({
            let mut map = $crate::json::Map::new();
            $crate::__json_members!(@next map $($tt)+);
            map
        })
    };
    ($e:expr) => {
        $crate::json::access::to_value(&$e)
    };
}

/// The items of a [`json!`] array.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_items {
    (@next [$($items:expr,)*]) => {
        ::std::vec![$($items,)*]
    };
    (@next [$($items:expr,)*] $v:tt , $($rest:tt)*) => {
        $crate::__json_items!(@next [$($items,)* $crate::json!($v),] $($rest)*)
    };
    (@next [$($items:expr,)*] $v:tt) => {
        ::std::vec![$($items,)* $crate::json!($v),]
    };
    (@next [$($items:expr,)*] $($rest:tt)+) => {
        $crate::__json_items!(@item [$($items,)*] () $($rest)+)
    };
    (@item [$($items:expr,)*] ($($cur:tt)+) , $($rest:tt)*) => {
        $crate::__json_items!(@next [$($items,)* $crate::json!($($cur)+),] $($rest)*)
    };
    (@item [$($items:expr,)*] ($($cur:tt)+)) => {
        ::std::vec![$($items,)* $crate::json!($($cur)+),]
    };
    (@item [$($items:expr,)*] ($($cur:tt)*) $t:tt $($rest:tt)*) => {
        $crate::__json_items!(@item [$($items,)*] ($($cur)* $t) $($rest)*)
    };
}

/// The members of a [`json!`] object, inserted into `$map` in order.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_members {
    (@next $map:ident) => {};
    (@next $map:ident $key:literal : $($rest:tt)+) => {
        $crate::__json_members!(@value $map ($key) $($rest)+)
    };
    (@next $map:ident ($key:expr) : $($rest:tt)+) => {
        $crate::__json_members!(@value $map ($key) $($rest)+)
    };
    (@next $map:ident $key:ident : $($rest:tt)+) => {
        $crate::__json_members!(@value $map ($key) $($rest)+)
    };
    (@value $map:ident ($key:expr) $v:tt , $($rest:tt)*) => {
        $map.insert($crate::json::Text::new($key), $crate::json!($v));
        $crate::__json_members!(@next $map $($rest)*);
    };
    (@value $map:ident ($key:expr) $v:tt) => {
        $map.insert($crate::json::Text::new($key), $crate::json!($v));
    };
    (@value $map:ident ($key:expr) $($rest:tt)+) => {
        $crate::__json_members!(@member $map ($key) () $($rest)+)
    };
    (@member $map:ident ($key:expr) ($($cur:tt)+) , $($rest:tt)*) => {
        $map.insert($crate::json::Text::new($key), $crate::json!($($cur)+));
        $crate::__json_members!(@next $map $($rest)*);
    };
    (@member $map:ident ($key:expr) ($($cur:tt)+)) => {
        $map.insert($crate::json::Text::new($key), $crate::json!($($cur)+));
    };
    (@member $map:ident ($key:expr) ($($cur:tt)*) $t:tt $($rest:tt)*) => {
        $crate::__json_members!(@member $map ($key) ($($cur)* $t) $($rest)*)
    };
}
