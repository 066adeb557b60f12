//! What one viewer — a seat or a spectator — may see of a deal, and nothing more.

use serde::{Deserialize, Serialize};

use super::bid::{Bid, Call};
use super::deal::{Action, Contract, Deal, Game, Outcome, Phase};
use super::event::Reveal;
use super::ruleset::RuleSet;
use crate::card::{CardSet, Suit};
use crate::fields::{is_false, no_cards};
use crate::seat::{Play, Seat};
pub use crate::trick::{TrickView, TricksTaken};

/// A call in the auction, with its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CallRecord {
    /// Who called.
    pub seat: Seat,
    /// What he called.
    pub call: Call,
}

/// What the viewer may do now: the legal actions, gathered for a client to offer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Prompt {
    /// Bids he may make, lowest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bids: Vec<Bid>,
    /// He may hold.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hold: bool,
    /// He may pass (in the auction, or decline Kontra / Rekontra).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pass: bool,
    /// He may pick up the skat.
    #[serde(default, skip_serializing_if = "is_false")]
    pub take_skat: bool,
    /// He may play Hand.
    #[serde(default, skip_serializing_if = "is_false")]
    pub play_hand: bool,
    /// He must lay away this many cards of his hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<u8>,
    /// Suits he may name as trumps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trumps: Vec<Suit>,
    /// He may say Kontra.
    #[serde(default, skip_serializing_if = "is_false")]
    pub kontra: bool,
    /// He may say Rekontra.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rekontra: bool,
    /// Cards he may play.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: CardSet,
    /// He may stop (taking the contract's value).
    #[serde(default, skip_serializing_if = "is_false")]
    pub stop: bool,
    /// He may go on for Durch.
    #[serde(default, skip_serializing_if = "is_false")]
    pub go_on: bool,
    /// He may give up his Kieker (−5): from the pick-up until the first card is led, out of turn
    /// too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub give_up: bool,
    /// He may announce a Siebener Fips (+30).
    #[serde(default, skip_serializing_if = "is_false")]
    pub siebener_fips: bool,
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
                Action::TakeSkat => prompt.take_skat = true,
                Action::PlayHand => prompt.play_hand = true,
                Action::Discard { cards } => prompt.discard = Some(cards.len() as u8),
                Action::NameTrumps { suit } => prompt.trumps.push(suit),
                Action::Kontra => prompt.kontra = true,
                Action::Rekontra => prompt.rekontra = true,
                Action::GiveUp => prompt.give_up = true,
                Action::SiebenerFips => prompt.siebener_fips = true,
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

// Also built, with its viewer's own fields alone, by `Deal::own_view` (said here, not in the
// doc comment, which is the protocol schema's description).
/// A deal as one viewer sees it. Built only by [`Deal::view`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DealView {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The table's rules.
    pub rules: RuleSet,
    /// The dealer.
    pub dealer: Seat,
    /// The player to the dealer's left.
    pub vorhand: Seat,
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
    /// The survivor of the duels so far.
    pub holder: Option<Seat>,
    /// Who challenges the holder now.
    pub challenger: Option<Seat>,
    /// The declarer.
    pub declarer: Option<Seat>,
    /// What the declarer owes.
    pub contract: Option<Contract>,
    /// The game as declared so far.
    pub game: Option<Game>,
    /// The skat: for the declarer once he has taken it; for everyone when the deal is over.
    pub skat: Option<CardSet>,
    /// The stock: for a Kieker declarer once taken; for everyone when the deal is over.
    pub stock: Option<CardSet>,
    /// The declarer's discards: for him; for everyone when the deal is over.
    pub discards: Option<CardSet>,
    /// A Kieker's dealt hand: for him and the opponent it was shown to.
    pub kieker_hand: Option<CardSet>,
    /// The finished tricks.
    pub tricks: Vec<TrickView>,
    /// The trick being played.
    pub trick: Vec<Play>,
    /// Whose card takes the trick being played as it stands (`null` when none is being played).
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
    /// What `viewer` may see (`None`: a spectator). A seat sees its own hand; the skat only as
    /// the declarer after taking it; its own discards; the stock only as a Kieker declarer; the
    /// Kieker's dealt hand only as the opponent it is shown to; everything once the deal is over.
    pub fn view(&self, viewer: Option<Seat>) -> DealView {
        let n = usize::from(self.players());
        let viewer = viewer.filter(|s| s.index() < n);
        let over = self.is_over();
        let play = self.tricks.view(self.players(), Some(self.trumps_in_play()));
        let own = self.own_parts(viewer);
        DealView {
            viewer,
            rules: self.rules,
            dealer: self.dealer,
            vorhand: self.vorhand(),
            phase: self.phase,
            turn: self.turn,
            hand: own.hand,
            hand_sizes: self.hands[..n].iter().map(|h| h.len() as u8).collect(),
            calls: self.auction.calls().iter().map(|&(seat, call)| CallRecord { seat, call }).collect(),
            standing: self.auction.standing(),
            holder: self.auction.holder(),
            challenger: self.auction.challenger(),
            declarer: self.declarer,
            contract: self.contract,
            game: self.game,
            skat: own.skat,
            stock: own.stock,
            discards: own.discards,
            kieker_hand: own.kieker_hand,
            tricks: play.tricks,
            trick: play.trick,
            winning: play.winning,
            tricks_taken: play.tricks_taken,
            outcome: self.outcome,
            scores: self.outcome.map(|o| o.scores(self.players())),
            reveal: over.then(|| self.reveal()),
            prompt: own.prompt,
        }
    }

    /// [`Deal::view`] with only the fields that differ from viewer to viewer filled in as the
    /// view has them (`viewer`, `hand`, `skat`, `stock`, `discards`, `kieker_hand`, `prompt`);
    /// the others are left empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> DealView {
        let viewer = viewer.filter(|s| s.index() < usize::from(self.players()));
        let own = self.own_parts(viewer);
        DealView {
            viewer,
            rules: self.rules,
            dealer: self.dealer,
            vorhand: self.dealer,
            phase: self.phase,
            turn: self.turn,
            hand: own.hand,
            hand_sizes: Vec::new(),
            calls: Vec::new(),
            standing: None,
            holder: None,
            challenger: None,
            declarer: None,
            contract: None,
            game: None,
            skat: own.skat,
            stock: own.stock,
            discards: own.discards,
            kieker_hand: own.kieker_hand,
            tricks: Vec::new(),
            trick: Vec::new(),
            winning: None,
            tricks_taken: TricksTaken { declarer: 0, opponents: 0 },
            outcome: None,
            scores: None,
            reveal: None,
            prompt: own.prompt,
        }
    }

    /// The parts of the view that differ from viewer to viewer (`viewer` one of the seats, or
    /// `None`).
    fn own_parts(&self, viewer: Option<Seat>) -> OwnParts {
        let over = self.is_over();
        let is_declarer = viewer.is_some() && viewer == self.declarer;
        let show = |allowed: bool, cards: CardSet| (over || allowed).then_some(cards);
        let kieker = self.contract.is_some_and(Contract::is_kieker);
        let kieker_hand = if kieker && (is_declarer || (viewer.is_some() && viewer == self.kieker_shown_to) || over) {
            self.declarer.map(|d| self.dealt_hand(d))
        } else {
            None
        };
        OwnParts {
            hand: viewer.map(|s| self.hand(s)),
            skat: show(is_declarer && self.skat_taken, self.skat),
            stock: show(is_declarer && kieker, self.stock),
            discards: show(is_declarer && self.skat_taken, self.discards),
            kieker_hand,
            prompt: match viewer {
                Some(seat) => Prompt::from_actions(&self.legal_actions(seat)),
                None => Prompt::default(),
            },
        }
    }
}

/// The parts of a deal's view that differ from viewer to viewer.
struct OwnParts {
    hand: Option<CardSet>,
    skat: Option<CardSet>,
    stock: Option<CardSet>,
    discards: Option<CardSet>,
    kieker_hand: Option<CardSet>,
    prompt: Prompt,
}
