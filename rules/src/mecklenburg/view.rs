//! What one viewer — a seat or a spectator — may see of a Mecklenburg deal (§B6).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Contract, Deal, Game, Outcome, Phase};
use super::event::Reveal;
use super::rules::{Bid, Call, Rules};
use crate::card::{CardSet, Suit};
use crate::fields::{is_false, no_cards};
use crate::seat::{Play, Seat};
use crate::sheet::deal_scores;
use crate::trick::{TrickView, TricksTaken};

/// A call in the auction, with its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgCallRecord"))]
pub struct CallRecord {
    /// Who called.
    pub seat: Seat,
    /// What he called.
    pub call: Call,
}

/// What the viewer may do now: his legal actions, gathered for a client to offer.
///
/// ```json
/// {"bids": [{"kind": "ruten_oewer"}, {"kind": "fips"}, {"kind": "rutenfips"}], "pass": true}
/// {"trumps": ["clubs", "spades", "hearts", "diamonds"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgPrompt"))]
pub struct Prompt {
    /// Bids he may make, lowest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bids: Vec<Bid>,
    /// He may hold (the duels only).
    #[serde(default, skip_serializing_if = "is_false")]
    pub hold: bool,
    /// He may pass.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass: bool,
    /// He must lay away this many cards of his hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<u8>,
    /// Suits he may name as trumps (diamonds: Ruten).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trumps: Vec<Suit>,
    /// Cards he may play.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: CardSet,
    /// He may stop (taking the contract's value).
    #[serde(default, skip_serializing_if = "is_false")]
    pub stop: bool,
    /// He may go on for Durch.
    #[serde(default, skip_serializing_if = "is_false")]
    pub go_on: bool,
}

impl Prompt {
    /// Gathers a list of legal actions.
    pub fn from_actions(actions: &[Action]) -> Prompt {
        let mut prompt = Prompt::default();
        for action in actions {
            match *action {
                Action::Bid { bid } => prompt.bids.push(bid),
                Action::Hold => prompt.hold = true,
                Action::Pass => prompt.pass = true,
                Action::Discard { cards } => prompt.discard = Some(cards.len() as u8),
                Action::NameTrumps { suit } => prompt.trumps.push(suit),
                Action::Play { card } => prompt.cards.insert(card),
                Action::Stop => prompt.stop = true,
                Action::GoOn => prompt.go_on = true,
            }
        }
        prompt
    }

    /// Whether nothing may be done.
    pub fn is_empty(&self) -> bool {
        *self == Prompt::default()
    }
}

/// A deal as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgDealView"))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules, with the game's name.
    pub rules: Rules,
    /// The dealer.
    pub dealer: Seat,
    /// The player to the dealer's left.
    pub forehand: Seat,
    /// Where the deal stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Option<Seat>,
    /// The viewer's own hand now (a seat only).
    pub hand: Option<CardSet>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The auction so far.
    pub calls: Vec<CallRecord>,
    /// The highest bid so far.
    pub standing: Option<Bid>,
    /// Who made it (in the duels: the survivor of the duels so far).
    pub holder: Option<Seat>,
    /// In the duels, who challenges the holder now.
    pub challenger: Option<Seat>,
    /// The declarer.
    pub declarer: Option<Seat>,
    /// What the declarer owes.
    pub contract: Option<Contract>,
    /// The game as played so far.
    pub game: Option<Game>,
    /// Whether the declarer has taken the Dutt.
    pub dutt_taken: bool,
    /// How many cards the declarer laid away.
    pub discarded: u8,
    /// The Dutt: for the declarer once he has taken it; for everyone when the deal is over.
    pub dutt: Option<CardSet>,
    /// The declarer's discards: for him; for everyone when the deal is over.
    pub discards: Option<CardSet>,
    /// The finished tricks.
    pub tricks: Vec<TrickView>,
    /// The trick being played.
    pub trick: Vec<Play>,
    /// Whose card takes the trick being played as it stands.
    pub winning: Option<Seat>,
    /// Tricks taken by each side.
    pub tricks_taken: TricksTaken,
    /// How the deal ended.
    pub outcome: Option<Outcome>,
    /// Points for each seat, once over.
    pub scores: Option<Vec<i32>>,
    /// Every hidden card, once over.
    pub reveal: Option<Reveal>,
    /// What the viewer may do now.
    pub prompt: Prompt,
}

impl Deal {
    /// What `viewer` may see (`None`: a spectator): his own hand; the Dutt as the declarer
    /// after taking it; his own discards; everything once the deal is over.
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.0 < Deal::PLAYERS);
        let over = self.is_over();
        let declares = viewer.is_some() && viewer == self.declarer;
        let play = self.tricks.view(Deal::PLAYERS, self.game.and_then(|g| g.trumps));
        DealView {
            viewer,
            rules: self.rules,
            dealer: self.dealer,
            forehand: self.forehand(),
            phase: self.phase,
            turn: self.turn,
            hand: viewer.map(|v| self.hands[v.index()]),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            calls: self.auction.calls().iter().map(|&(seat, call)| CallRecord { seat, call }).collect(),
            standing: self.auction.standing(),
            holder: self.auction.holder(),
            challenger: self.auction.challenger(),
            declarer: self.declarer,
            contract: self.contract,
            game: self.game,
            dutt_taken: self.dutt_taken,
            discarded: self.discards.len() as u8,
            dutt: (over || (declares && self.dutt_taken)).then_some(self.dutt),
            discards: (over || (declares && !self.discards.is_empty())).then_some(self.discards),
            tricks: play.tricks,
            trick: play.trick,
            winning: play.winning,
            tricks_taken: play.tricks_taken,
            outcome: self.outcome,
            scores: self.outcome.map(|o| deal_scores(Deal::PLAYERS, o.score(self.rules.loss_factor()))),
            reveal: over.then(|| self.reveal()),
            prompt: viewer.map_or_else(Prompt::default, |v| Prompt::from_actions(&self.legal_actions(v))),
        }
    }
}
