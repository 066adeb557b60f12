//! What one viewer — a seat or a spectator — may see of a Nap deal
//! (docs/rules/nap.md#n8-what-each-player-sees).

use serde::{Deserialize, Serialize};

use super::cards::{NapCard, NapCards, NapPlay, trick_winner};
use super::deal::{Action, Call, Deal, Outcome, Phase};
use super::rules::{Bid, Rules};
use crate::card::Suit;
use crate::fields::is_false;
use crate::seat::Seat;

/// What the viewer may do now: his legal actions, gathered for a client to offer.
///
/// ```json
/// {"exchange": 5, "keep": true}
/// {"peep": true, "pass": true, "bids": ["three", "misere", "four", "nap"]}
/// {"take_widow": true, "keep": true}
/// {"discard": 1}
/// {"trumps": ["clubs", "spades", "hearts", "diamonds"]}
/// {"cards": ["H9", "JK"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapPrompt"))]
pub struct Prompt {
    /// Purchase: he may lay away and buy up to this many cards (`exchange` with 1 to n cards).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub exchange: u8,
    /// Purchase: he may buy nothing; peep: the declarer may leave the widow.
    #[serde(default, skip_serializing_if = "is_false")]
    pub keep: bool,
    /// He may peep at the widow.
    #[serde(default, skip_serializing_if = "is_false")]
    pub peep: bool,
    /// He may pass.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass: bool,
    /// The bids he may make.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bids: Vec<Bid>,
    /// The declarer may take the widow.
    #[serde(default, skip_serializing_if = "is_false")]
    pub take_widow: bool,
    /// The declarer must discard this many cards of his hand (`discard`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub discard: u8,
    /// The suits he may name as trumps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trumps: Vec<Suit>,
    /// Cards he may play.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: NapCards,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn no_cards(cards: &NapCards) -> bool {
    cards.is_empty()
}

impl Prompt {
    /// Gathers a list of legal actions.
    pub fn from_actions(actions: &[Action]) -> Prompt {
        let mut prompt = Prompt::default();
        for action in actions {
            match *action {
                Action::Keep => prompt.keep = true,
                Action::Exchange { cards } => prompt.exchange = prompt.exchange.max(cards.len() as u8),
                Action::Peep => prompt.peep = true,
                Action::Pass => prompt.pass = true,
                Action::Bid { bid } => prompt.bids.push(bid),
                Action::TakeWidow => prompt.take_widow = true,
                Action::Discard { cards } => prompt.discard = cards.len() as u8,
                Action::NameTrumps { suit } => prompt.trumps.push(suit),
                Action::Play { card } => prompt.cards.insert(card),
            }
        }
        prompt
    }

    /// Whether nothing may be done.
    pub fn is_empty(&self) -> bool {
        *self == Prompt::default()
    }
}

/// A finished trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapTrickView"))]
pub struct TrickView {
    /// The cards in the order played.
    pub cards: Vec<NapPlay>,
    /// Who took it.
    pub winner: Seat,
}

/// A deal as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapDealView"))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules.
    pub rules: Rules,
    /// The deal's number in the series.
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The player to the dealer's left, who buys and bids first.
    pub forehand: Seat,
    /// Where the deal stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Option<Seat>,
    /// The viewer's own hand now (a seat only).
    pub hand: Option<NapCards>,
    /// The cards the viewer laid away (a seat only).
    pub laid_away: Option<NapCards>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// How many cards the stock holds (the widow apart).
    pub stock: u8,
    /// Whether the widow lies on the table.
    pub widow_lying: bool,
    /// The widow, for a viewer who peeped at it or took it.
    pub widow: Option<NapCard>,
    /// Who peeped at the widow.
    pub peeked: Vec<Seat>,
    /// How many cards each seat bought; `null` until he has decided (purchase tables).
    pub bought: Vec<Option<u8>>,
    /// The calls of the auction, in turn.
    pub calls: Vec<Call>,
    /// The bid standing, and the declarer's once the auction is over.
    pub bid: Option<Bid>,
    /// Who made it.
    pub declarer: Option<Seat>,
    /// Whether the declarer took the widow, once decided.
    pub took_widow: Option<bool>,
    /// The trump suit, once fixed.
    pub trumps: Option<Suit>,
    /// The finished tricks.
    pub tricks: Vec<TrickView>,
    /// The trick being played.
    pub trick: Vec<NapPlay>,
    /// Whose card takes the trick being played as it stands.
    pub winning: Option<Seat>,
    /// Tricks taken by the declarer.
    pub declarer_tricks: u8,
    /// Tricks taken by his opponents together.
    pub opponent_tricks: u8,
    /// The pool now.
    pub pool: i32,
    /// What each seat paid (negative) or took in this deal so far.
    pub scores: Vec<i32>,
    /// How the deal ended.
    pub outcome: Option<Outcome>,
    /// What the viewer may do now.
    pub prompt: Prompt,
}

impl Deal {
    /// What `viewer` may see (`None`: a spectator): his own hand and the cards he laid away,
    /// the widow if he peeped at it or took it, and what is public. Nothing hidden is shown to
    /// anyone else, not even once the deal is over.
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.0 < self.rules.players);
        let knows_widow = viewer
            .is_some_and(|v| self.peeked[v.index()] || (self.took_widow == Some(true) && self.declarer == Some(v)));
        let trick = self.current_trick().to_vec();
        let winning = if self.phase == Phase::Play { trick_winner(&trick, self.trumps) } else { None };
        let (declarer_tricks, opponent_tricks) = self.tricks_taken();
        DealView {
            viewer,
            rules: self.rules,
            number: self.number,
            dealer: self.dealer,
            forehand: self.forehand(),
            phase: self.phase,
            turn: self.turn,
            hand: viewer.map(|v| self.hands[v.index()]),
            laid_away: viewer.map(|v| self.laid_away[v.index()]),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            stock: self.stock.len() as u8,
            widow_lying: self.widow_lying,
            widow: self.widow.filter(|_| knows_widow),
            peeked: (0..self.rules.players).map(Seat).filter(|s| self.peeked[s.index()]).collect(),
            bought: self.bought.clone(),
            calls: self.calls.clone(),
            bid: self.bid,
            declarer: self.declarer,
            took_widow: self.took_widow,
            trumps: self.trumps,
            tricks: self.finished_tricks().map(|(cards, winner)| TrickView { cards: cards.to_vec(), winner }).collect(),
            trick,
            winning,
            declarer_tricks,
            opponent_tricks,
            pool: self.pool,
            scores: self.changes.clone(),
            outcome: self.outcome,
            prompt: viewer.map_or_else(Prompt::default, |v| Prompt::from_actions(&self.legal_actions(v))),
        }
    }
}
