//! The table options: every house rule of Prisdorf Fipsen (`docs/rules/prisdorf.md`) is a field here.

use serde::{Deserialize, Serialize};

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

/// Who leads to the first trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FirstLead {
    /// Vorhand, the player to the dealer's left (Prisdorf).
    Forehand,
    /// The declarer (the Japanese source).
    Declarer,
}

/// Whom the winner of a Kieker auction shows his dealt hand to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum KiekerShow {
    /// The opponent on his left sees the hand (Prisdorf).
    LeftOpponent,
    /// Nobody: the server has already checked that the hand holds no court card.
    Nobody,
}

/// Why a rule set cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// `min_bid` outside 2..=3.
    #[error("the minimum bid must be 2 or 3 tricks, not {0}")]
    MinBid(u8),
    /// `deals` of zero.
    #[error("a series needs at least one deal")]
    NoDeals,
    /// A number of players the game is not played with.
    #[error("this game is played by {min} to {max} players, not {players}")]
    PlayerCount {
        /// The number asked for.
        players: u8,
        /// The fewest players.
        min: u8,
        /// The most players.
        max: u8,
    },
    /// `min_bid` outside the game's range.
    #[error("the minimum bid must be {low} to {high} tricks, not {min_bid}")]
    MinBidRange {
        /// The number asked for.
        min_bid: u8,
        /// The lowest allowed.
        low: u8,
        /// The highest allowed.
        high: u8,
    },
    /// `rounds` of zero.
    #[error("a series needs at least one round")]
    NoRounds,
    /// `loss_factor` other than 1 or 2.
    #[error("a lost game costs once or twice its value, not {0} times")]
    LossFactor(u8),
    /// Tippen: an option the chosen preset does not offer.
    #[error("the option {option} is not offered by the preset {preset}")]
    OptionNotOffered {
        /// The option (and its value where only that value is not offered).
        option: &'static str,
        /// The preset.
        preset: &'static str,
    },
    /// Tippen: a maximum bête that is not a positive multiple of the hand size.
    #[error("max_bete must be a positive multiple of the hand size {hand}, not {max_bete}")]
    MaxBete {
        /// The number asked for.
        max_bete: u32,
        /// The hand size.
        hand: u8,
    },
    /// Tippen: a limit of the middle outside the range a table may choose.
    #[error("max_pot must be between {min} and {max} counters, not {max_pot}")]
    MaxPot {
        /// The number asked for.
        max_pot: u32,
        /// The smallest limit.
        min: u32,
        /// The largest limit.
        max: u32,
    },
    /// Tippen: an exchange of more than four cards.
    #[error("exchange_max must be 0 to 4 cards, not {0}")]
    ExchangeMax(u8),
    /// Tippen: the two as Daus at a table with the 32-card pack, which has no twos.
    #[error("daus_card two needs the 52-card pack (seven players or more)")]
    DausTwoNeedsTwos,
    /// Wippen: `sets` of zero.
    #[error("a match needs at least one set")]
    NoSets,
    /// Wippen: no operator allowed.
    #[error("at least one operator must be allowed")]
    NoOperators,
    /// Wippen: `max_group_piles` outside 1 to 6.
    #[error("max_group_piles must be 1 to 6, not {0}")]
    MaxGroupPiles(u8),
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
