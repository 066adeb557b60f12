//! The table options of Großenaspe Fipsen (§A10), its bids and their order (§A4).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::options::{FirstLead, KiekerShow, RuleSetError};

/// A bid of Großenaspe Fipsen. Every bid has its own height; no two bids are equal:
/// 1 < 1 Gute < 2 < 2 Gute < 3 < 3 Gute < 4 < 4 Gute < Kieker < 5 < 5 Gute < Fips.
///
/// ```json
/// {"kind": "tricks", "tricks": 3, "gute": true}
/// {"kind": "kieker"}
/// {"kind": "fips"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeBid"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bid {
    /// To take at least `tricks` tricks (1..=5); with `gute`, clubs are trumps.
    Tricks {
        /// 1 to 5.
        tricks: u8,
        /// Clubs trumps ("Gute").
        #[serde(default)]
        gute: bool,
    },
    /// All five tricks after exchanging the dealt hand for skat and talon. Only with no court
    /// card in the dealt hand.
    Kieker,
    /// All five tricks with the dealt hand, the skat untouched.
    Fips,
}

impl Bid {
    /// A plain bid of `tricks`.
    pub const fn tricks(tricks: u8) -> Bid {
        Bid::Tricks { tricks, gute: false }
    }

    /// A Gute bid of `tricks` (clubs trumps).
    pub const fn gute(tricks: u8) -> Bid {
        Bid::Tricks { tricks, gute: true }
    }

    /// Every bid, lowest first.
    pub const ALL: [Bid; 12] = [
        Bid::tricks(1),
        Bid::gute(1),
        Bid::tricks(2),
        Bid::gute(2),
        Bid::tricks(3),
        Bid::gute(3),
        Bid::tricks(4),
        Bid::gute(4),
        Bid::Kieker,
        Bid::tricks(5),
        Bid::gute(5),
        Bid::Fips,
    ];

    /// Whether the bid is well formed: 1..=5 tricks, a Kieker or a Fips.
    pub const fn is_valid(self) -> bool {
        match self {
            Bid::Tricks { tricks, .. } => tricks >= 1 && tricks <= 5,
            Bid::Kieker | Bid::Fips => true,
        }
    }

    /// The bid's height (its place in [`Bid::ALL`]); a malformed bid has none.
    pub const fn height(self) -> u8 {
        match self {
            Bid::Tricks { tricks: 5, gute } => 9 + gute as u8,
            Bid::Tricks { tricks, gute } => (tricks.saturating_sub(1)) * 2 + gute as u8,
            Bid::Kieker => 8,
            Bid::Fips => 11,
        }
    }

    /// Tricks the declarer must take: the number bid, or all five for a Kieker or a Fips.
    pub const fn target(self) -> u8 {
        match self {
            Bid::Tricks { tricks, .. } => tricks,
            Bid::Kieker | Bid::Fips => 5,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bid::Tricks { tricks, gute: false } => write!(f, "{tricks}"),
            Bid::Tricks { tricks, gute: true } => write!(f, "{tricks} Gute"),
            Bid::Kieker => f.write_str("Kieker"),
            Bid::Fips => f.write_str("Fips"),
        }
    }
}

/// What a player says in the auction.
///
/// ```json
/// {"call": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": false}}
/// {"call": "hold"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeCall"))]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// A bid of his own.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// The holder takes over the challenger's bid (the identical contract).
    Hold,
    /// Out of the auction.
    Pass,
}

/// A Großenaspe table's options (§A10).
///
/// ```json
/// {"players": 4, "min_bid": 1, "kieker_show": "left_opponent", "first_lead": "forehand",
///  "loss_factor": 2, "deals": null, "cents": false}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeRules"))]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// 3, 4 (default) or 5 players.
    pub players: u8,
    /// The lowest number bid: 1 (default) or 2.
    pub min_bid: u8,
    /// Whom the Kieker shows his dealt hand to (default the left opponent).
    pub kieker_show: KiekerShow,
    /// Who leads to the first trick (default forehand).
    pub first_lead: FirstLead,
    /// A lost game costs this many times its value: 1 or 2 (default).
    pub loss_factor: u8,
    /// How many deals the series lasts; `None` is open-ended (default). Thrown-in deals do not
    /// count.
    pub deals: Option<u32>,
    /// Show the totals as cents with a settlement between every pair of players.
    pub cents: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::grossenaspe()
    }
}

impl Rules {
    /// The Großenaspe game for four players, open-ended.
    pub const fn grossenaspe() -> Rules {
        Rules {
            players: 4,
            min_bid: 1,
            kieker_show: KiekerShow::LeftOpponent,
            first_lead: FirstLead::Forehand,
            loss_factor: 2,
            deals: None,
            cents: false,
        }
    }

    /// Checks the options that a type alone cannot.
    ///
    /// # Errors
    /// [`RuleSetError`] names the option out of range.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if !(3..=5).contains(&self.players) {
            return Err(RuleSetError::PlayerCount { players: self.players, min: 3, max: 5 });
        }
        if !(1..=2).contains(&self.min_bid) {
            return Err(RuleSetError::MinBidRange { min_bid: self.min_bid, low: 1, high: 2 });
        }
        if !(1..=2).contains(&self.loss_factor) {
            return Err(RuleSetError::LossFactor(self.loss_factor));
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
    fn every_bid_has_its_own_height_in_the_documented_order() {
        for (i, bid) in Bid::ALL.iter().enumerate() {
            assert_eq!(usize::from(bid.height()), i, "{bid}");
            assert!(bid.is_valid());
        }
        let names: Vec<String> = Bid::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(names.join(" < "), "1 < 1 Gute < 2 < 2 Gute < 3 < 3 Gute < 4 < 4 Gute < Kieker < 5 < 5 Gute < Fips");
        assert!(!Bid::tricks(0).is_valid() && !Bid::tricks(6).is_valid());
    }

    #[test]
    fn options_are_checked_and_json_fills_the_defaults() {
        let rules: Rules = serde_json::from_str(r#"{"players":5}"#).unwrap();
        assert_eq!(rules, Rules { players: 5, ..Rules::grossenaspe() });
        assert!(serde_json::from_str::<Rules>(r#"{"kontra":true}"#).is_err());
        assert!(Rules { players: 6, ..Rules::grossenaspe() }.validate().is_err());
        assert!(Rules { min_bid: 3, ..Rules::grossenaspe() }.validate().is_err());
        assert!(Rules { loss_factor: 3, ..Rules::grossenaspe() }.validate().is_err());
        assert!(Rules { deals: Some(0), ..Rules::grossenaspe() }.validate().is_err());
        assert_eq!(Rules::grossenaspe().validate(), Ok(()));
        let json = serde_json::to_string(&Call::Bid { bid: Bid::gute(3) }).unwrap();
        assert_eq!(json, r#"{"call":"bid","bid":{"kind":"tricks","tricks":3,"gute":true}}"#);
    }
}
