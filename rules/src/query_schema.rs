//! The JSON schema of the games' questions and answers ([`crate::GameQuery`],
//! [`crate::GameAnswer`]): one shape per game that takes questions, none for the others
//! ([`NoQuery`] matches nothing).

use crate::engine::NoQuery;

impl schemars::JsonSchema for NoQuery {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NoQuery".into()
    }

    /// Kept where it is used: it is `false`, which the schema of the questions leaves out.
    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::from(false)
    }
}

/// The schema that is one of `games`' schemas, leaving out the games that take none (`false`),
/// and the same schema once however many games share it.
pub(crate) fn one_of(games: Vec<schemars::Schema>, description: &str) -> schemars::Schema {
    let mut shapes: Vec<schemars::Schema> = Vec::new();
    for schema in games {
        if schema.as_bool() != Some(false) && !shapes.contains(&schema) {
            shapes.push(schema);
        }
    }
    schemars::json_schema!({ "description": description, "oneOf": shapes })
}
