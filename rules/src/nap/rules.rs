//! The table options of Nap and its bids with their stakes (docs/rules/nap.md#n9-table-options,
//! docs/rules/nap.md#n4-the-auction, docs/rules/nap.md#n6-settlement).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::options::RuleSetError;

/// The fewest players.
pub const MIN_PLAYERS: u8 = 2;
/// The most players.
pub const MAX_PLAYERS: u8 = 7;
/// Cards in every hand.
pub const HAND: u8 = 5;
/// What a peep at the widow costs, paid into the pool.
pub const PEEP_COST: i32 = 1;
/// What each card bought costs, paid into the pool.
pub const CARD_COST: i32 = 1;
/// The most cards one player may buy.
pub const MAX_PURCHASE: u8 = 5;
/// What each player puts into an empty pool, and the dealer into one that is not (option `pool`).
pub const POOL_ANTE: i32 = 1;

/// The pack a table plays with (docs/rules/nap.md#n1-cards-and-seats).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapPackChoice"))]
#[serde(rename_all = "snake_case")]
pub enum PackChoice {
    /// All 52 cards (default).
    #[default]
    Full,
    /// Stripped by the number of players: A–9 for two or three, A–8 for four, A–7 for five, A–6
    /// for six, A–5 for seven.
    Stripped,
}

/// What a player may do with the stock before the auction (docs/rules/nap.md#n3-peep-and-purchase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapExchange"))]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    /// Nothing: the stock stays untouched (default).
    #[default]
    Off,
    /// Peep: the top card of the stock is the widow; at his turn to bid a player may look at it
    /// for a counter into the pool, and the declarer may take it for one of his cards.
    Peep,
    /// Purchase: before the auction each player in turn may lay away cards and buy as many from
    /// the stock, a counter a card into the pool.
    Purchase,
}

/// What happens when everybody passes (docs/rules/nap.md#n4-the-auction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapAllPass"))]
#[serde(rename_all = "snake_case")]
pub enum AllPass {
    /// The deal is thrown in, and the next player deals (default).
    #[default]
    ThrowIn,
    /// The dealer, speaking last, may not pass when nobody has bid: he must bid.
    DealerBids,
}

/// A Nap table's options (docs/rules/nap.md#n9-table-options).
///
/// ```json
/// {"players": 4, "pack": "full", "joker": false, "misere": true, "wellington": true,
///  "blucher": true, "exchange": "off", "pool": false, "all_pass": "throw_in", "deals": null}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapRules"))]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// How many players (default 4; 2 to 7).
    pub players: u8,
    /// The whole pack (default) or one stripped by the number of players.
    pub pack: PackChoice,
    /// A joker added as the highest trump (default off).
    pub joker: bool,
    /// Misère may be bid (default on).
    pub misere: bool,
    /// Wellington may be bid over a Nap (default on).
    pub wellington: bool,
    /// Blücher may be bid over a Wellington (default on; without `wellington` it never can be).
    pub blucher: bool,
    /// Peep or purchase before the auction (default off).
    pub exchange: Exchange,
    /// The pool: antes that wait for a winning Nap, and a lost Nap's penalty (default off).
    pub pool: bool,
    /// What happens when everybody passes (default: thrown in).
    pub all_pass: AllPass,
    /// How many deals the series lasts; `None` is open-ended (default).
    pub deals: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            players: 4,
            pack: PackChoice::Full,
            joker: false,
            misere: true,
            wellington: true,
            blucher: true,
            exchange: Exchange::Off,
            pool: false,
            all_pass: AllPass::ThrowIn,
            deals: None,
        }
    }
}

impl Rules {
    /// Checks the options that a type alone cannot.
    ///
    /// # Errors
    /// [`RuleSetError::PlayerCount`] outside 2 to 7 players, [`RuleSetError::NoDeals`] for
    /// `deals` of zero.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            return Err(RuleSetError::PlayerCount { players: self.players, min: MIN_PLAYERS, max: MAX_PLAYERS });
        }
        if self.deals == Some(0) {
            return Err(RuleSetError::NoDeals);
        }
        Ok(())
    }

    /// Whether this table offers `bid` at all (Blücher, bid only over a Wellington, needs both).
    pub const fn offers(&self, bid: Bid) -> bool {
        match bid {
            Bid::Misere => self.misere,
            Bid::Wellington => self.wellington,
            Bid::Blucher => self.blucher && self.wellington,
            Bid::Two | Bid::Three | Bid::Four | Bid::Nap => true,
        }
    }
}

/// A bid, lowest first (docs/rules/nap.md#n4-the-auction).
///
/// ```json
/// "two"  "three"  "misere"  "four"  "nap"  "wellington"  "blucher"
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapBid"))]
#[serde(rename_all = "snake_case")]
pub enum Bid {
    /// At least two tricks.
    Two,
    /// At least three tricks.
    Three,
    /// No trick at all, without trumps.
    Misere,
    /// At least four tricks.
    Four,
    /// All five tricks.
    Nap,
    /// All five tricks at double a Nap's stakes; only over a Nap.
    Wellington,
    /// All five tricks at triple a Nap's stakes; only over a Wellington.
    Blucher,
}

impl Bid {
    /// Every bid, lowest first.
    pub const ALL: [Bid; 7] = [Bid::Two, Bid::Three, Bid::Misere, Bid::Four, Bid::Nap, Bid::Wellington, Bid::Blucher];

    /// The tricks the declarer must take (0 for a misère, which must take none).
    pub const fn tricks(self) -> u8 {
        match self {
            Bid::Two => 2,
            Bid::Three => 3,
            Bid::Misere => 0,
            Bid::Four => 4,
            Bid::Nap | Bid::Wellington | Bid::Blucher => 5,
        }
    }

    /// A misère: no trumps, every trick to be lost.
    pub const fn is_misere(self) -> bool {
        matches!(self, Bid::Misere)
    }

    /// A bid of all five tricks: Nap, Wellington or Blücher, the bids that win the pool.
    pub const fn is_five(self) -> bool {
        matches!(self, Bid::Nap | Bid::Wellington | Bid::Blucher)
    }

    /// What each opponent pays the declarer when the bid is made (docs/rules/nap.md#n6-settlement).
    pub const fn won(self) -> i32 {
        match self {
            Bid::Two => 2,
            Bid::Three | Bid::Misere => 3,
            Bid::Four => 4,
            Bid::Nap => 10,
            Bid::Wellington => 20,
            Bid::Blucher => 30,
        }
    }

    /// What the declarer pays each opponent when the bid fails.
    pub const fn lost(self) -> i32 {
        match self {
            Bid::Two => 2,
            Bid::Three | Bid::Misere => 3,
            Bid::Four => 4,
            Bid::Nap => 5,
            Bid::Wellington => 10,
            Bid::Blucher => 15,
        }
    }

    /// The bid that must stand before this one may be made: Wellington only over a Nap,
    /// Blücher only over a Wellington.
    pub const fn only_over(self) -> Option<Bid> {
        match self {
            Bid::Wellington => Some(Bid::Nap),
            Bid::Blucher => Some(Bid::Wellington),
            _ => None,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bid::Two => "two",
            Bid::Three => "three",
            Bid::Misere => "misère",
            Bid::Four => "four",
            Bid::Nap => "Nap",
            Bid::Wellington => "Wellington",
            Bid::Blucher => "Blücher",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        assert_eq!(Rules::default().validate(), Ok(()));
        for players in [0, 1, 8] {
            assert!(matches!(Rules { players, ..Rules::default() }.validate(), Err(RuleSetError::PlayerCount { .. })));
        }
        assert_eq!(Rules { deals: Some(0), ..Rules::default() }.validate(), Err(RuleSetError::NoDeals));
        let no_wellington = Rules { wellington: false, ..Rules::default() };
        assert_eq!(no_wellington.validate(), Ok(()));
        assert!(!no_wellington.offers(Bid::Blucher), "Blücher is bid only over a Wellington");
        assert!(Rules::default().offers(Bid::Blucher));
        let json = serde_json::to_string(&Rules::default()).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), Rules::default());
        assert_eq!(serde_json::from_str::<Rules>("{}").unwrap(), Rules::default());
        assert!(serde_json::from_str::<Rules>(r#"{"jokers": true}"#).is_err());
    }

    #[test]
    fn bids_rank_with_misere_between_three_and_four() {
        let mut sorted = Bid::ALL;
        sorted.sort();
        assert_eq!(sorted, Bid::ALL);
        assert!(Bid::Three < Bid::Misere && Bid::Misere < Bid::Four);
        assert_eq!(serde_json::to_string(&Bid::Blucher).unwrap(), "\"blucher\"");
        let stakes: Vec<(i32, i32)> = Bid::ALL.iter().map(|b| (b.won(), b.lost())).collect();
        assert_eq!(stakes, [(2, 2), (3, 3), (3, 3), (4, 4), (10, 5), (20, 10), (30, 15)]);
    }
}
