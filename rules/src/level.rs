//! How well a computer player plays: a table option (the level of a bot at a seat) and part of
//! a review (the level whose estimates it shows). The bots themselves live in their own crate.

use serde::{Deserialize, Serialize};

/// How well a bot plays.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Rules of thumb only: counts its tricks to bid, plays high to win and low to lose.
    Easy,
    /// Estimates by sampling and exact solving, with few samples.
    Normal,
    /// More samples, every layout once few remain, and discards searched more widely.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Strong];

    /// The level's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Strong => "strong",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_is_its_name_in_json() {
        for level in Level::ALL {
            let json = serde_json::to_string(&level).unwrap();
            assert_eq!(json, format!("\"{}\"", level.name()));
            assert_eq!(serde_json::from_str::<Level>(&json).unwrap(), level);
        }
        assert!(serde_json::from_str::<Level>("\"master\"").is_err());
    }
}
