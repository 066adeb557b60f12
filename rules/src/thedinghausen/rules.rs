//! The table options of Thedinghausen Fipsen (§C9).

use serde::{Deserialize, Serialize};

use crate::options::RuleSetError;

/// A Thedinghausen table's options (§C9).
///
/// ```json
/// {"fipsen": true, "head_the_trick": false, "rounds": null}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenRules"))]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// After the deal, each player in turn may announce fipsen (default on).
    pub fipsen: bool,
    /// A player following suit must beat the best card of the suit led if he can (default off).
    pub head_the_trick: bool,
    /// How many rounds the series lasts; `None` is open-ended (default).
    pub rounds: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { fipsen: true, head_the_trick: false, rounds: None }
    }
}

impl Rules {
    /// Checks the options that a type alone cannot.
    ///
    /// # Errors
    /// [`RuleSetError::NoRounds`] for `rounds` of zero.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if self.rounds == Some(0) {
            return Err(RuleSetError::NoRounds);
        }
        Ok(())
    }
}
