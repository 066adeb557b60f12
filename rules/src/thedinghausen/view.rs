//! What one viewer — a seat or a spectator — may see of a Thedinghausen deal (§C8).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Deal, Fipsen, Outcome, Phase};
use super::event::Reveal;
use super::rules::Rules;
use crate::card::{Card, CardSet};
use crate::fields::{is_false, no_cards};
use crate::seat::{Play, Seat};
use crate::trick::TrickView;

/// What the viewer may do now: his legal actions, gathered for a client to offer.
///
/// ```json
/// {"fipsen": true, "pass": true}
/// {"cards": ["HQ", "H9"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenPrompt"))]
pub struct Prompt {
    /// He may announce fipsen.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fipsen: bool,
    /// He may pass.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass: bool,
    /// Cards he may play.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: CardSet,
}

impl Prompt {
    /// Gathers a list of legal actions.
    pub fn from_actions(actions: &[Action]) -> Prompt {
        let mut prompt = Prompt::default();
        for action in actions {
            match *action {
                Action::Fipsen => prompt.fipsen = true,
                Action::Pass => prompt.pass = true,
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

/// A deal as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenDealView"))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules.
    pub rules: Rules,
    /// The deal's number in the series.
    pub number: u32,
    /// The round's number.
    pub round: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The player to the dealer's left, who speaks first and leads.
    pub forehand: Seat,
    /// Where the deal stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Option<Seat>,
    /// The viewer's own hand now (a seat only).
    pub hand: Option<CardSet>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The turned-up card: trumps are its suit.
    pub trump_card: Card,
    /// Who passed in the announcements, in turn.
    pub passed: Vec<Seat>,
    /// The fipsen announced, and how it stands.
    pub fipsen: Option<Fipsen>,
    /// The finished tricks.
    pub tricks: Vec<TrickView>,
    /// The trick being played.
    pub trick: Vec<Play>,
    /// Whose card takes the trick being played as it stands.
    pub winning: Option<Seat>,
    /// Tricks each seat took in this deal.
    pub tricks_taken: Vec<u8>,
    /// Each seat's round count.
    pub counts: Vec<u8>,
    /// The round pot.
    pub pot: i32,
    /// How the deal ended.
    pub outcome: Option<Outcome>,
    /// What each seat paid (negative) or took in this deal so far.
    pub scores: Vec<i32>,
    /// Every hidden card (the hands, the six unused cards), once over.
    pub reveal: Option<Reveal>,
    /// What the viewer may do now.
    pub prompt: Prompt,
}

impl Deal {
    /// What `viewer` may see (`None`: a spectator): his own hand, and what is public; every
    /// hidden card once the deal is over.
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.0 < Deal::PLAYERS);
        let play = self.tricks.view(Deal::PLAYERS, Some(self.trump_card.suit()));
        DealView {
            viewer,
            rules: self.rules,
            number: self.number,
            round: self.round.number,
            dealer: self.dealer,
            forehand: self.forehand(),
            phase: self.phase,
            turn: self.turn,
            hand: viewer.map(|v| self.hands[v.index()]),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            trump_card: self.trump_card,
            passed: self.passed.clone(),
            fipsen: self.fipsen,
            tricks: play.tricks,
            trick: play.trick,
            winning: play.winning,
            tricks_taken: self.tricks_taken().to_vec(),
            counts: self.counts.to_vec(),
            pot: self.pot,
            outcome: self.outcome.clone(),
            scores: self.changes.to_vec(),
            reveal: self.is_over().then(|| self.reveal()),
            prompt: viewer.map_or_else(Prompt::default, |v| Prompt::from_actions(&self.legal_actions(v))),
        }
    }
}
