//! Creating, fetching and listing series.

use folio_store::Scope;
use uuid::Uuid;

use crate::model::MAX_PADDING;
use crate::{NewSeries, Sequence, SequenceError, SequenceResult, Series, db};

/// Longest name, code, prefix or suffix.
const MAX_TEXT: usize = 255;

impl Sequence {
    /// Creates a series with a client-chosen id. The same request again returns the series;
    /// other content under a taken id is a conflict.
    pub async fn create_series(
        &self,
        scope: Scope,
        id: Uuid,
        new: NewSeries,
    ) -> SequenceResult<Series> {
        check(&new)?;
        let series = Series::fresh(id, new);
        if db::series::insert(&self.store, scope, &series).await? {
            return Ok(series);
        }
        let existing = self.series(scope, id).await?;
        if existing.def == series.def {
            Ok(existing)
        } else {
            Err(SequenceError::Conflict(
                "a different series exists with this id".into(),
            ))
        }
    }

    /// One series.
    pub async fn series(&self, scope: Scope, id: Uuid) -> SequenceResult<Series> {
        db::series::get(&self.store, scope, id)
            .await?
            .ok_or(SequenceError::NotFound("series"))
    }

    /// Every series of the workspace, oldest first.
    pub async fn list_series(&self, scope: Scope) -> SequenceResult<Vec<Series>> {
        db::series::list(&self.store, scope).await
    }

    /// The series with this name, created with `defaults` when there is none. Its id derives
    /// from the workspace and the name, so concurrent callers create one series, not two.
    pub async fn series_named(&self, scope: Scope, defaults: NewSeries) -> SequenceResult<Series> {
        if let Some(found) = db::series::by_name(&self.store, scope, &defaults.name).await? {
            return Ok(found);
        }
        let id = Uuid::new_v5(
            &scope.workspace_id(),
            format!("series:{}", defaults.name).as_bytes(),
        );
        check(&defaults)?;
        let series = Series::fresh(id, defaults);
        db::series::insert(&self.store, scope, &series).await?;
        self.series(scope, id).await
    }
}

fn check(new: &NewSeries) -> SequenceResult<()> {
    if new.name.trim().is_empty() {
        return Err(SequenceError::invalid("name", "required"));
    }
    for (field, text) in [
        ("name", Some(&new.name)),
        ("code", new.code.as_ref()),
        ("prefix", Some(&new.prefix)),
        ("suffix", Some(&new.suffix)),
    ] {
        if text.is_some_and(|t| t.chars().count() > MAX_TEXT) {
            return Err(SequenceError::invalid(
                field,
                format!("at most {MAX_TEXT} characters"),
            ));
        }
    }
    if !(0..=MAX_PADDING).contains(&new.padding) {
        return Err(SequenceError::invalid(
            "padding",
            format!("0 to {MAX_PADDING}"),
        ));
    }
    if new.start < 0 {
        return Err(SequenceError::invalid("start", "must be 0 or more"));
    }
    Ok(())
}
