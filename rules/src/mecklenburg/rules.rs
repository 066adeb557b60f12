//! The table options of Anseggerfips and Duttfips (§B7), their bids and their order (§B2, §B3).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::games::GameId;
use crate::options::{FirstLead, RuleSetError};

/// Which of the two Mecklenburg games a table plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Bids 2 to 4, Ruten bids, Fips, Rutenfips; a throw-in when nobody bids.
    Anseggerfips,
    /// Dutt, Ruten oewer, Fips, Rutenfips; forehand must name one; the Dutt always exchanged.
    Duttfips,
}

/// A bid of either Mecklenburg game. Anseggerfips: 2 < Ruten 2 < 3 < Ruten 3 < 4 < Ruten 4 <
/// Fips < Rutenfips (from 1 with `min_bid` 1). Duttfips: Dutt < Ruten oewer < Fips < Rutenfips.
///
/// ```json
/// {"kind": "tricks", "tricks": 3, "ruten": false}
/// {"kind": "dutt"}
/// {"kind": "ruten_oewer"}
/// {"kind": "fips"}
/// {"kind": "rutenfips"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgBid"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bid {
    /// Anseggerfips: to take at least `tricks` tricks (1..=4); with `ruten`, the Rutenas is the
    /// only trump.
    Tricks {
        /// 1 to 4.
        tricks: u8,
        /// A Ruten game.
        #[serde(default)]
        ruten: bool,
    },
    /// Duttfips: 3 tricks, trumps a suit the declarer names.
    Dutt,
    /// Duttfips: 3 tricks with the Rutenas as the only trump.
    RutenOewer,
    /// All five tricks, trumps a suit the declarer names.
    Fips,
    /// All five tricks with the Rutenas as the only trump.
    Rutenfips,
}

impl Bid {
    /// A suit bid of `tricks`.
    pub const fn tricks(tricks: u8) -> Bid {
        Bid::Tricks { tricks, ruten: false }
    }

    /// A Ruten bid of `tricks`.
    pub const fn ruten(tricks: u8) -> Bid {
        Bid::Tricks { tricks, ruten: true }
    }

    /// Every bid of Anseggerfips, lowest first.
    pub const ANSEGGERFIPS: [Bid; 10] = [
        Bid::tricks(1),
        Bid::ruten(1),
        Bid::tricks(2),
        Bid::ruten(2),
        Bid::tricks(3),
        Bid::ruten(3),
        Bid::tricks(4),
        Bid::ruten(4),
        Bid::Fips,
        Bid::Rutenfips,
    ];

    /// Every contract of Duttfips, lowest first.
    pub const DUTTFIPS: [Bid; 4] = [Bid::Dutt, Bid::RutenOewer, Bid::Fips, Bid::Rutenfips];

    /// Every bid of `variant`, lowest first.
    pub const fn all(variant: Variant) -> &'static [Bid] {
        match variant {
            Variant::Anseggerfips => &Bid::ANSEGGERFIPS,
            Variant::Duttfips => &Bid::DUTTFIPS,
        }
    }

    /// Whether `variant` has this bid.
    pub const fn is_valid_in(self, variant: Variant) -> bool {
        match (self, variant) {
            (Bid::Tricks { tricks, .. }, Variant::Anseggerfips) => tricks >= 1 && tricks <= 4,
            (Bid::Dutt | Bid::RutenOewer, Variant::Duttfips) => true,
            (Bid::Fips | Bid::Rutenfips, _) => true,
            _ => false,
        }
    }

    /// The bid's height within its game. A Dutt stands where a 3 would, a Ruten oewer where a
    /// Ruten 3 would.
    pub const fn height(self) -> u8 {
        match self {
            Bid::Tricks { tricks, ruten } => tricks.saturating_sub(1) * 2 + ruten as u8,
            Bid::Dutt => 4,
            Bid::RutenOewer => 5,
            Bid::Fips => 8,
            Bid::Rutenfips => 9,
        }
    }

    /// Tricks the declarer must take: n, 3 for a Dutt or a Ruten oewer, 5 for a Fips or a
    /// Rutenfips. It is also the base of the value (§B5).
    pub const fn target(self) -> u8 {
        match self {
            Bid::Tricks { tricks, .. } => tricks,
            Bid::Dutt | Bid::RutenOewer => 3,
            Bid::Fips | Bid::Rutenfips => 5,
        }
    }

    /// Whether this is a Ruten game: the Rutenas (♦A) the only trump.
    pub const fn is_ruten(self) -> bool {
        matches!(self, Bid::Tricks { ruten: true, .. } | Bid::RutenOewer | Bid::Rutenfips)
    }

    /// The matching Ruten game: n → Ruten n, Dutt → Ruten oewer, Fips → Rutenfips.
    pub const fn with_ruten(self) -> Bid {
        match self {
            Bid::Tricks { tricks, .. } => Bid::ruten(tricks),
            Bid::Dutt | Bid::RutenOewer => Bid::RutenOewer,
            Bid::Fips | Bid::Rutenfips => Bid::Rutenfips,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bid::Tricks { tricks, ruten: false } => write!(f, "{tricks}"),
            Bid::Tricks { tricks, ruten: true } => write!(f, "Ruten {tricks}"),
            Bid::Dutt => f.write_str("Dutt"),
            Bid::RutenOewer => f.write_str("Ruten oewer"),
            Bid::Fips => f.write_str("Fips"),
            Bid::Rutenfips => f.write_str("Rutenfips"),
        }
    }
}

/// What a player says in the auction.
///
/// ```json
/// {"call": "bid", "bid": {"kind": "tricks", "tricks": 2, "ruten": true}}
/// {"call": "hold"}
/// {"call": "pass"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgCall"))]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// A bid of his own.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// In the duels, the holder takes over the challenger's bid (the identical contract).
    Hold,
    /// Out of the auction.
    Pass,
}

/// How Anseggerfips is bid (§B2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AuctionKind {
    /// Forehand first, each player speaks once: a higher bid or pass.
    #[default]
    SingleRound,
    /// The duel auction of Prisdorf, over this order of bids.
    Duels,
}

/// What becomes of the Dutt in Anseggerfips (§B2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DuttUse {
    /// It stays aside, out of play and unseen.
    #[default]
    Unused,
    /// The declarer takes it and lays away any five cards.
    Exchange,
}

/// How the cards are drawn on the client; the rules do not depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Faces {
    /// Eichel, Grün, Herz, Schellen; Daus, König, Ober, Unter.
    #[default]
    German,
    /// Clubs, spades, hearts, diamonds.
    French,
    /// French faces with green clubs and orange diamonds.
    FourColour,
}

/// An Anseggerfips table's options (§B7).
///
/// ```json
/// {"auction": "single_round", "min_bid": 2, "dutt": "unused", "ruten_needs_rutenas": true,
///  "ruten_unbid": true, "durch": true, "loss_factor": 2, "first_lead": "forehand",
///  "faces": "german", "deals": null, "cents": false}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct AnseggerfipsRules {
    /// A single round (default) or the duels.
    pub auction: AuctionKind,
    /// The lowest number bid: 1 to 4 (default 2).
    pub min_bid: u8,
    /// The Dutt unused (default) or exchanged by the declarer.
    pub dutt: DuttUse,
    /// Only the holder of the Rutenas may bid or name Ruten (default on).
    pub ruten_needs_rutenas: bool,
    /// The declarer of a suit bid may name Ruten, doubling (default on).
    pub ruten_unbid: bool,
    /// A declarer with his tricks and no trick lost may play on for Durch (default on); off,
    /// the deal ends as soon as he has his target.
    pub durch: bool,
    /// A lost game costs this many times its value: 1 or 2 (default).
    pub loss_factor: u8,
    /// Who leads to the first trick (default forehand).
    pub first_lead: FirstLead,
    /// The faces drawn (display only; default German).
    pub faces: Faces,
    /// How many deals the series lasts; `None` is open-ended (default). Thrown-in deals do not
    /// count.
    pub deals: Option<u32>,
    /// Show the totals as cents with a settlement between every pair of players.
    pub cents: bool,
}

impl Default for AnseggerfipsRules {
    fn default() -> Self {
        AnseggerfipsRules::anseggerfips()
    }
}

impl AnseggerfipsRules {
    /// The defaults of §B7.
    pub const fn anseggerfips() -> AnseggerfipsRules {
        AnseggerfipsRules {
            auction: AuctionKind::SingleRound,
            min_bid: 2,
            dutt: DuttUse::Unused,
            ruten_needs_rutenas: true,
            ruten_unbid: true,
            durch: true,
            loss_factor: 2,
            first_lead: FirstLead::Forehand,
            faces: Faces::German,
            deals: None,
            cents: false,
        }
    }
}

/// A Duttfips table's options (§B7): always a single round, the Dutt always exchanged.
///
/// ```json
/// {"ruten_needs_rutenas": false, "ruten_unbid": true, "durch": true, "loss_factor": 2,
///  "first_lead": "forehand", "faces": "german", "deals": null, "cents": false}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DuttfipsRules {
    /// Only the holder of the Rutenas may bid or name Ruten (default off: the Dutt may bring it
    /// to anyone).
    pub ruten_needs_rutenas: bool,
    /// The declarer of a Dutt or a Fips may name Ruten, doubling (default on).
    pub ruten_unbid: bool,
    /// A declarer with his tricks and no trick lost may play on for Durch (default on).
    pub durch: bool,
    /// A lost game costs this many times its value: 1 or 2 (default).
    pub loss_factor: u8,
    /// Who leads to the first trick (default forehand).
    pub first_lead: FirstLead,
    /// The faces drawn (display only; default German).
    pub faces: Faces,
    /// How many deals the series lasts; `None` is open-ended (default).
    pub deals: Option<u32>,
    /// Show the totals as cents with a settlement between every pair of players.
    pub cents: bool,
}

impl Default for DuttfipsRules {
    fn default() -> Self {
        DuttfipsRules::duttfips()
    }
}

impl DuttfipsRules {
    /// The defaults of §B7.
    pub const fn duttfips() -> DuttfipsRules {
        DuttfipsRules {
            ruten_needs_rutenas: false,
            ruten_unbid: true,
            durch: true,
            loss_factor: 2,
            first_lead: FirstLead::Forehand,
            faces: Faces::German,
            deals: None,
            cents: false,
        }
    }
}

/// The options of either game, as a deal keeps them. In JSON the game's own options with the
/// game's name:
///
/// ```json
/// {"game": "duttfips", "ruten_needs_rutenas": false, "ruten_unbid": true, "durch": true,
///  "loss_factor": 2, "first_lead": "forehand", "faces": "german", "deals": null, "cents": false}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgRules"))]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum Rules {
    /// Anseggerfips.
    Anseggerfips(AnseggerfipsRules),
    /// Duttfips.
    Duttfips(DuttfipsRules),
}

impl From<AnseggerfipsRules> for Rules {
    fn from(rules: AnseggerfipsRules) -> Rules {
        Rules::Anseggerfips(rules)
    }
}

impl From<DuttfipsRules> for Rules {
    fn from(rules: DuttfipsRules) -> Rules {
        Rules::Duttfips(rules)
    }
}

/// The options of one Mecklenburg game: each game's own type, and its name.
pub trait GameRules:
    Copy + fmt::Debug + PartialEq + Eq + Default + Serialize + for<'de> Deserialize<'de> + Send + Sync + 'static
{
    /// The game.
    const ID: GameId;
    /// The options as a deal keeps them.
    fn rules(self) -> Rules;

    /// Checks the options that their types alone cannot.
    ///
    /// # Errors
    /// An option is out of range.
    fn validate(&self) -> Result<(), RuleSetError> {
        self.rules().validate()
    }

    /// How many deals the series lasts (`None`: open-ended).
    fn deals(&self) -> Option<u32> {
        self.rules().deals()
    }
}

impl GameRules for AnseggerfipsRules {
    const ID: GameId = GameId::Anseggerfips;
    fn rules(self) -> Rules {
        Rules::Anseggerfips(self)
    }
}

impl GameRules for DuttfipsRules {
    const ID: GameId = GameId::Duttfips;
    fn rules(self) -> Rules {
        Rules::Duttfips(self)
    }
}

impl Rules {
    /// Which game.
    pub const fn variant(&self) -> Variant {
        match self {
            Rules::Anseggerfips(_) => Variant::Anseggerfips,
            Rules::Duttfips(_) => Variant::Duttfips,
        }
    }

    /// How the auction is held (Duttfips: always a single round).
    pub const fn auction(&self) -> AuctionKind {
        match self {
            Rules::Anseggerfips(r) => r.auction,
            Rules::Duttfips(_) => AuctionKind::SingleRound,
        }
    }

    /// The lowest number bid (Duttfips has none; its lowest contract is the Dutt).
    pub const fn min_bid(&self) -> u8 {
        match self {
            Rules::Anseggerfips(r) => r.min_bid,
            Rules::Duttfips(_) => 1,
        }
    }

    /// What becomes of the Dutt (Duttfips: always exchanged).
    pub const fn dutt(&self) -> DuttUse {
        match self {
            Rules::Anseggerfips(r) => r.dutt,
            Rules::Duttfips(_) => DuttUse::Exchange,
        }
    }

    /// Whether only the holder of the Rutenas may bid or name Ruten.
    pub const fn ruten_needs_rutenas(&self) -> bool {
        match self {
            Rules::Anseggerfips(r) => r.ruten_needs_rutenas,
            Rules::Duttfips(r) => r.ruten_needs_rutenas,
        }
    }

    /// Whether the declarer of a suit contract may name Ruten.
    pub const fn ruten_unbid(&self) -> bool {
        match self {
            Rules::Anseggerfips(r) => r.ruten_unbid,
            Rules::Duttfips(r) => r.ruten_unbid,
        }
    }

    /// Whether the declarer may play on for Durch.
    pub const fn durch(&self) -> bool {
        match self {
            Rules::Anseggerfips(r) => r.durch,
            Rules::Duttfips(r) => r.durch,
        }
    }

    /// How many times its value a lost game costs.
    pub const fn loss_factor(&self) -> u8 {
        match self {
            Rules::Anseggerfips(r) => r.loss_factor,
            Rules::Duttfips(r) => r.loss_factor,
        }
    }

    /// Who leads to the first trick.
    pub const fn first_lead(&self) -> FirstLead {
        match self {
            Rules::Anseggerfips(r) => r.first_lead,
            Rules::Duttfips(r) => r.first_lead,
        }
    }

    /// How many deals the series lasts.
    pub const fn deals(&self) -> Option<u32> {
        match self {
            Rules::Anseggerfips(r) => r.deals,
            Rules::Duttfips(r) => r.deals,
        }
    }

    /// Whether totals are shown as cents with a settlement.
    pub const fn cents(&self) -> bool {
        match self {
            Rules::Anseggerfips(r) => r.cents,
            Rules::Duttfips(r) => r.cents,
        }
    }

    /// Checks the options that a type alone cannot.
    ///
    /// # Errors
    /// [`RuleSetError`] names the option out of range.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        if let Rules::Anseggerfips(r) = self
            && !(1..=4).contains(&r.min_bid)
        {
            return Err(RuleSetError::MinBidRange { min_bid: r.min_bid, low: 1, high: 4 });
        }
        if !(1..=2).contains(&self.loss_factor()) {
            return Err(RuleSetError::LossFactor(self.loss_factor()));
        }
        if self.deals() == Some(0) {
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
        for variant in [Variant::Anseggerfips, Variant::Duttfips] {
            let bids = Bid::all(variant);
            assert!(bids.windows(2).all(|w| w[0].height() < w[1].height()), "{variant:?}");
            assert!(bids.iter().all(|b| b.is_valid_in(variant)));
        }
        let names = |bids: &[Bid]| bids.iter().map(ToString::to_string).collect::<Vec<_>>().join(" < ");
        assert_eq!(names(&Bid::ANSEGGERFIPS[2..]), "2 < Ruten 2 < 3 < Ruten 3 < 4 < Ruten 4 < Fips < Rutenfips");
        assert_eq!(names(&Bid::DUTTFIPS), "Dutt < Ruten oewer < Fips < Rutenfips");
        assert!(
            !Bid::tricks(5).is_valid_in(Variant::Anseggerfips) && !Bid::tricks(0).is_valid_in(Variant::Anseggerfips)
        );
        assert!(!Bid::Dutt.is_valid_in(Variant::Anseggerfips) && !Bid::tricks(3).is_valid_in(Variant::Duttfips));
    }

    #[test]
    fn options_are_checked_and_json_fills_the_defaults() {
        let rules: AnseggerfipsRules = serde_json::from_str(r#"{"auction":"duels","dutt":"exchange"}"#).unwrap();
        assert_eq!(
            rules,
            AnseggerfipsRules {
                auction: AuctionKind::Duels,
                dutt: DuttUse::Exchange,
                ..AnseggerfipsRules::anseggerfips()
            }
        );
        assert!(serde_json::from_str::<AnseggerfipsRules>(r#"{"players":4}"#).is_err());
        assert!(serde_json::from_str::<DuttfipsRules>(r#"{"auction":"duels"}"#).is_err());
        let duttfips: DuttfipsRules = serde_json::from_str(r#"{"faces":"four_colour"}"#).unwrap();
        assert_eq!(duttfips, DuttfipsRules { faces: Faces::FourColour, ..DuttfipsRules::duttfips() });
        assert!(!DuttfipsRules::default().ruten_needs_rutenas && AnseggerfipsRules::default().ruten_needs_rutenas);
        let bad = |r: AnseggerfipsRules| r.rules().validate().is_err();
        assert!(bad(AnseggerfipsRules { min_bid: 0, ..AnseggerfipsRules::anseggerfips() }));
        assert!(bad(AnseggerfipsRules { min_bid: 5, ..AnseggerfipsRules::anseggerfips() }));
        assert!(bad(AnseggerfipsRules { loss_factor: 3, ..AnseggerfipsRules::anseggerfips() }));
        assert!(DuttfipsRules { deals: Some(0), ..DuttfipsRules::duttfips() }.rules().validate().is_err());
        assert_eq!(Rules::from(AnseggerfipsRules::default()).validate(), Ok(()));
        let json = serde_json::to_string(&Rules::from(DuttfipsRules::default())).unwrap();
        assert!(json.starts_with(r#"{"game":"duttfips","ruten_needs_rutenas":false"#), "{json}");
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), Rules::from(DuttfipsRules::default()));
        let json = serde_json::to_string(&Call::Bid { bid: Bid::ruten(3) }).unwrap();
        assert_eq!(json, r#"{"call":"bid","bid":{"kind":"tricks","tricks":3,"ruten":true}}"#);
    }
}
