//! Table options more than one game offers, and why a game's options cannot be used.

use serde::{Deserialize, Serialize};

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
