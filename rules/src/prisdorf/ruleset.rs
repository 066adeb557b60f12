//! The table options: every house rule of Prisdorf Fipsen (`docs/rules/prisdorf.md`) is a field here.

use serde::{Deserialize, Serialize};

use crate::options::{FirstLead, KiekerShow, RuleSetError};

/// How many players sit at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Players {
    /// Three players: 8 cards in the stock, one duel fewer, the three-player Kieker.
    Three,
    /// Four players: the standard game.
    Four,
}

impl Players {
    /// The number of seats.
    pub const fn count(self) -> u8 {
        match self {
            Players::Three => 3,
            Players::Four => 4,
        }
    }

    /// The size of the stock: 3 with four players, 8 with three.
    pub const fn stock_size(self) -> usize {
        match self {
            Players::Three => 8,
            Players::Four => 3,
        }
    }
}

impl TryFrom<u8> for Players {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        match n {
            3 => Ok(Players::Three),
            4 => Ok(Players::Four),
            _ => Err(format!("Fipsen is played by 3 or 4 players, not {n}")),
        }
    }
}

impl From<Players> for u8 {
    fn from(p: Players) -> u8 {
        p.count()
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Players {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Players".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "enum": [3, 4] })
    }
}

/// A table's rules: every option of Prisdorf Fipsen (`docs/rules/prisdorf.md`). The default is Prisdorf.
///
/// ```json
/// {"players": 4, "min_bid": 2, "kontra": false, "first_lead": "forehand",
///  "kieker_show": "left_opponent", "deals": null}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct RuleSet {
    /// 3 or 4 players (default 4).
    pub players: Players,
    /// The lowest opening bid in tricks: 2 (default) or 3 (house rule).
    pub min_bid: u8,
    /// Kontra and Rekontra allowed (default off; never in tournaments).
    pub kontra: bool,
    /// Who leads to the first trick (default Vorhand).
    pub first_lead: FirstLead,
    /// Whom a Kieker shows his dealt hand to (default the left opponent).
    pub kieker_show: KiekerShow,
    /// How many deals the series lasts; `None` is open-ended (default). Thrown-in deals do not
    /// count, as the same dealer deals again.
    pub deals: Option<u32>,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::prisdorf()
    }
}

impl RuleSet {
    /// The Prisdorf game for four players, open-ended.
    pub const fn prisdorf() -> RuleSet {
        RuleSet {
            players: Players::Four,
            min_bid: 2,
            kontra: false,
            first_lead: FirstLead::Forehand,
            kieker_show: KiekerShow::LeftOpponent,
            deals: None,
        }
    }

    /// A tournament table: 100 deals with four players, 120 with three; no Kontra.
    pub const fn tournament(players: Players) -> RuleSet {
        RuleSet {
            players,
            deals: Some(match players {
                Players::Four => 100,
                Players::Three => 120,
            }),
            ..RuleSet::prisdorf()
        }
    }

    /// Checks the options that a type alone cannot.
    ///
    /// # Errors
    /// [`RuleSetError`] names the option that is out of range.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if !(2..=3).contains(&self.min_bid) {
            return Err(RuleSetError::MinBid(self.min_bid));
        }
        if self.deals == Some(0) {
            return Err(RuleSetError::NoDeals);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_prisdorf_and_json_fills_missing_fields() {
        let rules: RuleSet = serde_json::from_str(r#"{"players":3}"#).unwrap();
        assert_eq!(rules, RuleSet { players: Players::Three, ..RuleSet::prisdorf() });
        assert_eq!(RuleSet::default(), RuleSet::prisdorf());
        assert!(serde_json::from_str::<RuleSet>(r#"{"players":5}"#).is_err());
        assert!(serde_json::from_str::<RuleSet>(r#"{"colour":"red"}"#).is_err());
    }

    #[test]
    fn validation_names_the_bad_option() {
        assert_eq!(RuleSet { min_bid: 4, ..RuleSet::prisdorf() }.validate(), Err(RuleSetError::MinBid(4)));
        assert_eq!(RuleSet { deals: Some(0), ..RuleSet::prisdorf() }.validate(), Err(RuleSetError::NoDeals));
        assert_eq!(RuleSet::tournament(Players::Three).deals, Some(120));
        assert_eq!(RuleSet::tournament(Players::Four).validate(), Ok(()));
    }
}
