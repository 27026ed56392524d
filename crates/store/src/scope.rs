//! The workspace a statement runs in.

use sqlx::Any;
use sqlx::any::AnyArguments;
use uuid::Uuid;

/// A statement with its arguments, as the services' storage layers build them.
pub type Query<'q> = sqlx::query::Query<'q, Any, AnyArguments<'q>>;

/// One workspace. The services' storage layers take it first and bind it as `$1` of every
/// statement, so no statement's author writes that binding, and a workspace cannot be passed
/// where another id is expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scope(Uuid);

impl Scope {
    /// The scope of a workspace.
    pub fn new(workspace_id: Uuid) -> Scope {
        Scope(workspace_id)
    }

    /// The workspace's id.
    pub fn workspace_id(self) -> Uuid {
        self.0
    }

    /// A statement whose `$1` is this workspace: `... WHERE workspace_id = $1 AND ...`, or the
    /// first value of an `INSERT`. Bind the other values from `$2` on.
    pub fn query(self, sql: &str) -> Query<'_> {
        debug_assert!(
            sql.contains("workspace_id") && sql.contains("$1"),
            "a scoped statement names workspace_id as $1: {sql}"
        );
        sqlx::query(sql).bind(self.0.to_string())
    }

    /// Arguments that start with this workspace as `$1`, for statements whose placeholders are
    /// numbered as they are bound (`sqlx::query_with`).
    pub fn arguments(self) -> AnyArguments<'static> {
        use sqlx::Arguments as _;
        let mut args = AnyArguments::default();
        // A String always encodes; the error type is only there for other types.
        let _ = args.add(self.0.to_string());
        args
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "workspace {}", self.0)
    }
}
