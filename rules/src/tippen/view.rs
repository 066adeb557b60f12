//! What one viewer — a seat or a spectator — may see of a Tippen deal (§D9).
//!
//! The visibility table, which both the view and [`Event::for_viewer`](super::Event::for_viewer)
//! follow:
//!
//! | zone | who sees it while the deal runs |
//! |---|---|
//! | a hand (also passed) | its owner, except the dealer while he may knock |
//! | the talon | nobody |
//! | a discard, an exchange | the seat that laid it away |
//! | the trump card | all once turned (or sniffed after alvensleben); the dealer only when he knocked or sniffed after grupp |
//! | the 1821 dealer's last card | all, while he holds it |
//! | the robbing seven, a hop's bottom card, the cards played | all |

use serde::{Deserialize, Serialize};

use super::deal::{Action, Carry, Deal, Decision, Exchange, Hop, Outcome, Phase};
use super::event::Reveal;
use super::rules::{Rules, Sniffing};
use crate::card::{Card, CardSet, Suit};
use crate::fields::{is_false, no_cards};
use crate::seat::{Play, Seat, trick_winner};
use crate::trick::TrickView;

/// What the viewer may do now: his legal actions, gathered for a client to offer.
///
/// ```json
/// {"shove": true, "deal": true}
/// {"knock": true, "no_knock": true}
/// {"discard": 1}
/// {"join": true, "pass": true, "rob": true}
/// {"keep": true, "exchange": 3}
/// {"cards": ["HQ", "H9"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenPrompt"))]
pub struct Prompt {
    /// He may pass the deal on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shove: bool,
    /// He may deal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deal: bool,
    /// He may knock.
    #[serde(default, skip_serializing_if = "is_false")]
    pub knock: bool,
    /// He may decline to knock.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_knock: bool,
    /// He may sniff.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sniff: bool,
    /// He may decline to sniff.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_sniff: bool,
    /// He must lay away this many cards of his hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<u8>,
    /// He may play this deal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub join: bool,
    /// He may play and rob the trump card.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rob: bool,
    /// He may pass.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass: bool,
    /// He may drop out, paying the stake.
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop_out: bool,
    /// He may keep his cards (exchange none).
    #[serde(default, skip_serializing_if = "is_false")]
    pub keep: bool,
    /// He may exchange one card up to this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<u8>,
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
                Action::Shove => prompt.shove = true,
                Action::Deal => prompt.deal = true,
                Action::Knock => prompt.knock = true,
                Action::NoKnock => prompt.no_knock = true,
                Action::Sniff => prompt.sniff = true,
                Action::NoSniff => prompt.no_sniff = true,
                Action::Discard { cards } => prompt.discard = Some(cards.len() as u8),
                Action::Join => prompt.join = true,
                Action::Rob => prompt.rob = true,
                Action::Pass => prompt.pass = true,
                Action::DropOut => prompt.drop_out = true,
                Action::Keep => prompt.keep = true,
                Action::Exchange { cards } => {
                    prompt.exchange = Some(prompt.exchange.unwrap_or(0).max(cards.len() as u8));
                }
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

// Also built, with its viewer's own fields alone, by `Deal::own_view` (said here, not in the
// doc comment, which is the protocol schema's description).
/// A deal as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenDealView"))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules.
    pub rules: Rules,
    /// The deal's number in the series.
    pub number: u32,
    /// The seat that was due to deal.
    pub due: Seat,
    /// The dealer now.
    pub dealer: Seat,
    /// The seat to the dealer's left.
    pub forehand: Seat,
    /// Where the deal stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Option<Seat>,
    /// The viewer's own hand now (a seat only; not the dealer's while he may knock).
    pub hand: Option<CardSet>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The dealers who shoved.
    pub shoves: Vec<Seat>,
    /// The bottom cards shown by hop and jump.
    pub hops: Vec<Hop>,
    /// Trumps, once known.
    pub trumps: Option<Suit>,
    /// The trump card, where the viewer may see it.
    pub trump_card: Option<Card>,
    /// The card face up on the table: the turned trump card or the robbing seven.
    pub table_card: Option<Card>,
    /// The 1821 dealer's last card, face up in his hand.
    pub exposed: Option<Card>,
    /// Whether the dealer knocked.
    pub knocked: bool,
    /// How the dealer sniffed.
    pub sniffed: Option<Sniffing>,
    /// Whether every seat must play this deal.
    pub everyone_must_play: bool,
    /// The answers so far.
    pub decisions: Vec<Decision>,
    /// Who plays, once decided.
    pub active: Vec<Seat>,
    /// Who robbed.
    pub robbed: Option<Seat>,
    /// How many cards each seat exchanged.
    pub exchanges: Vec<Exchange>,
    /// The viewer's own discards.
    pub discards: Option<CardSet>,
    /// Cards left in the talon.
    pub talon: u8,
    /// The finished tricks.
    pub tricks: Vec<TrickView>,
    /// The trick being played.
    pub trick: Vec<Play>,
    /// Whose card takes the trick being played as it stands.
    pub winning: Option<Seat>,
    /// Tricks each seat took.
    pub tricks_taken: Vec<u8>,
    /// Pot and reserve as the deal began.
    pub carry: Carry,
    /// The pot now.
    pub pot: i32,
    /// The reserve now.
    pub reserve: i32,
    /// The pot played for.
    pub played_for: i32,
    /// What each seat paid (negative) or received in this deal so far.
    pub scores: Vec<i32>,
    /// How the deal ended.
    pub outcome: Option<Outcome>,
    /// Every hidden card, once over.
    pub reveal: Option<Reveal>,
    /// What the viewer may do now.
    pub prompt: Prompt,
}

impl Deal {
    /// Whether `viewer` may see `seat`'s hand now.
    fn sees_hand(&self, viewer: Option<Seat>, seat: Seat) -> bool {
        viewer == Some(seat) && !(seat == self.dealer && self.phase == Phase::Knock)
    }

    /// Whether `viewer` may see the trump card now.
    fn sees_trump_card(&self, viewer: Option<Seat>) -> bool {
        if self.turned || self.exposed().is_some() || self.is_over() {
            return true;
        }
        (self.knocked || self.sniffed == Some(Sniffing::Grupp)) && viewer == Some(self.dealer)
    }

    /// What `viewer` may see (`None`: a spectator): his own hand, and what is public; every
    /// hidden card once the deal is over.
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.0 < self.players());
        let done = self.winners.len() * self.active.len();
        let tricks = self
            .winners
            .iter()
            .enumerate()
            .map(|(i, &winner)| {
                let m = self.active.len();
                TrickView { cards: self.plays[i * m..(i + 1) * m].to_vec(), winner }
            })
            .collect();
        let trick = self.plays[done.min(self.plays.len())..].to_vec();
        let winning = self.trumps.filter(|_| !trick.is_empty()).map(|t| trick_winner(&trick, t));
        DealView {
            viewer,
            rules: self.rules,
            number: self.number,
            due: self.due,
            dealer: self.dealer,
            forehand: self.forehand(),
            phase: self.phase,
            turn: self.turn,
            hand: self.hand_of(viewer),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            shoves: self.shoves.clone(),
            hops: self.hops.clone(),
            trumps: self.trumps,
            trump_card: self.trump_card_of(viewer),
            table_card: self.table.filter(|_| self.turned),
            exposed: self.exposed(),
            knocked: self.knocked,
            sniffed: self.sniffed,
            everyone_must_play: self.everyone_must_play(),
            decisions: self.decisions.clone(),
            active: self.active.clone(),
            robbed: self.robbed,
            exchanges: self.exchanges.clone(),
            discards: viewer.map(|v| self.discards[v.index()]),
            talon: self.talon.len() as u8,
            tricks,
            trick,
            winning,
            tricks_taken: self.tricks_taken(),
            carry: self.carry,
            pot: self.pot,
            reserve: self.reserve,
            played_for: self.played_for,
            scores: self.changes.clone(),
            outcome: self.outcome.clone(),
            reveal: self.is_over().then(|| self.reveal()),
            prompt: self.prompt_of(viewer),
        }
    }

    /// [`Deal::view`] with only the fields that differ from viewer to viewer filled in as the
    /// view has them (`viewer`, `hand`, `trump_card`, `discards`, `prompt`); the others are left
    /// empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.0 < self.players());
        DealView {
            viewer,
            rules: self.rules,
            number: self.number,
            due: self.due,
            dealer: self.dealer,
            forehand: self.dealer,
            phase: self.phase,
            turn: self.turn,
            hand: self.hand_of(viewer),
            hand_sizes: Vec::new(),
            shoves: Vec::new(),
            hops: Vec::new(),
            trumps: None,
            trump_card: self.trump_card_of(viewer),
            table_card: None,
            exposed: None,
            knocked: false,
            sniffed: None,
            everyone_must_play: false,
            decisions: Vec::new(),
            active: Vec::new(),
            robbed: None,
            exchanges: Vec::new(),
            discards: viewer.map(|v| self.discards[v.index()]),
            talon: 0,
            tricks: Vec::new(),
            trick: Vec::new(),
            winning: None,
            tricks_taken: Vec::new(),
            carry: Carry::default(),
            pot: 0,
            reserve: 0,
            played_for: 0,
            scores: Vec::new(),
            outcome: None,
            reveal: None,
            prompt: self.prompt_of(viewer),
        }
    }

    /// The viewer's hand, where he may see it.
    fn hand_of(&self, viewer: Option<Seat>) -> Option<CardSet> {
        viewer.filter(|&v| self.sees_hand(Some(v), v)).map(|v| self.hands[v.index()])
    }

    /// The trump card, where the viewer may see it.
    fn trump_card_of(&self, viewer: Option<Seat>) -> Option<Card> {
        self.trump_card.filter(|_| self.sees_trump_card(viewer))
    }

    /// What the viewer may do now (nothing for a spectator).
    fn prompt_of(&self, viewer: Option<Seat>) -> Prompt {
        viewer.map_or_else(Prompt::default, |v| Prompt::from_actions(&self.legal_actions(v)))
    }
}
