//! The table options of Wippen (§E13).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::expr::Op;
use crate::options::RuleSetError;

/// A set of operators, kept as a bit mask. In JSON an array of symbols, e.g. `["+", "-"]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operators(u8);

impl Operators {
    /// All four operators (the default).
    pub const ALL: Operators = Operators(0b1111);
    /// Addition only (a beginners' table).
    pub const PLUS: Operators = Operators(1);

    /// The set of these operators.
    pub fn of(ops: &[Op]) -> Operators {
        Operators(ops.iter().fold(0, |m, op| m | op.bit()))
    }

    /// The mask, one bit per operator in the order `+ - * /`.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `op` is allowed.
    pub const fn contains(self, op: Op) -> bool {
        self.0 & op.bit() != 0
    }

    /// Whether none is allowed.
    pub const fn is_empty(self) -> bool {
        self.0 & 0b1111 == 0
    }

    /// The allowed operators in the order `+ - * /`.
    pub fn list(self) -> Vec<Op> {
        Op::ALL.into_iter().filter(|&op| self.contains(op)).collect()
    }
}

impl Default for Operators {
    fn default() -> Self {
        Operators::ALL
    }
}

impl Serialize for Operators {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.list().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Operators {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Operators::of(&Vec::<Op>::deserialize(deserializer)?))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Operators {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WippenOperators".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let op = generator.subschema_for::<Op>();
        schemars::json_schema!({
            "description": "The operators allowed in expressions: a non-empty subset of + - * /.",
            "type": "array",
            "items": op,
            "uniqueItems": true
        })
    }
}

/// A Wippen table's options (§E13).
///
/// ```json
/// {"players": 2, "sets": 1, "operators": ["+", "-", "*", "/"], "max_group_piles": 4,
///  "keep_promise": true, "last_move_sweep": true, "deals": null}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenRules"))]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// 2 to 4 players (default 2).
    pub players: u8,
    /// Sets in the match, each of one game per player (default 1).
    pub sets: u32,
    /// The operators allowed in expressions (default all four).
    pub operators: Operators,
    /// The most table piles in one group, 1 to 6 (default 4).
    pub max_group_piles: u8,
    /// A builder must keep a card of his building's value (default on).
    pub keep_promise: bool,
    /// A capture that empties the table with the game's last card is a sweep (default on).
    pub last_move_sweep: bool,
    /// The match ends after this many games instead of `players × sets` (the platform's
    /// length for short series; default none).
    pub deals: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 2,
            sets: 1,
            operators: Operators::ALL,
            max_group_piles: 4,
            keep_promise: true,
            last_move_sweep: true,
            deals: None,
        }
    }
}

impl Rules {
    /// Checks the options that their types alone cannot.
    ///
    /// # Errors
    /// An option is out of range.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if !(2..=4).contains(&self.players) {
            return Err(RuleSetError::PlayerCount { players: self.players, min: 2, max: 4 });
        }
        if self.sets == 0 {
            return Err(RuleSetError::NoSets);
        }
        if self.operators.is_empty() {
            return Err(RuleSetError::NoOperators);
        }
        if self.deals == Some(0) {
            return Err(RuleSetError::NoDeals);
        }
        if !(1..=6).contains(&self.max_group_piles) {
            return Err(RuleSetError::MaxGroupPiles(self.max_group_piles));
        }
        Ok(())
    }

    /// Games in the match: one per player per set (or `deals`, if set).
    pub fn games(&self) -> u32 {
        self.deals.unwrap_or(u32::from(self.players) * self.sets)
    }

    /// Deals (of hand cards) in one game: 6 with two players, 4 with three, 3 with four (§E3:
    /// after the table's four cards, each deal gives every player four of the other 48).
    pub fn deals_per_game(&self) -> u8 {
        (48 / (4 * u32::from(self.players.max(1)))) as u8
    }
}
