//! Test helpers shared by every game of the Holstein family: card codes, arranged packs, the
//! small deterministic generator behind the random players, scripted and strongest-card play
//! over any game's deal, the golden-deal runner and the property-test driver.
#![allow(dead_code)]

use std::fmt::Debug;

use fipsen_rules::{Card, CardSet, RuleError, Seat, Suit};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub mod golden;
pub mod properties;

/// What the shared helpers need of a game's deal: its inherent methods, under one name.
pub trait HolsteinDeal: Clone + PartialEq + Debug + Serialize + DeserializeOwned {
    type Action: Copy + PartialEq + Debug;
    type Event: Clone + PartialEq + Debug + Serialize;
    type Phase: Debug;
    type View: Serialize;

    /// Every card of the game's pack.
    const PACK: CardSet;
    /// The declarer stops after taking his tricks without a loss.
    const STOP: Self::Action;
    /// The declarer goes on for Durch.
    const GO_ON: Self::Action;

    fn players(&self) -> u8;
    fn card_places(&self) -> Vec<CardSet>;
    fn hand(&self, seat: Seat) -> CardSet;
    fn is_over(&self) -> bool;
    fn turn(&self) -> Option<Seat>;
    fn phase(&self) -> Self::Phase;
    /// The trump suit, once named.
    fn trumps(&self) -> Option<Suit>;
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    fn check(&self, seat: Seat, action: Self::Action) -> Result<(), RuleError>;
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, RuleError>;
    fn view(&self, viewer: Option<Seat>) -> Self::View;
    fn redact(event: &Self::Event, viewer: Option<Seat>) -> Self::Event;
    /// The card a play puts on the table, `None` for any other action.
    fn card_played(action: Self::Action) -> Option<Card>;
    /// Each seat's score, told by the event that ends the deal (`None` for any other).
    fn final_scores(event: &Self::Event) -> Option<&[i32]>;
}

/// [`HolsteinDeal`] for a game's `Deal` with the pack `$pack`: every method the deal's inherent
/// one of the same name. `Deal`, `Action`, `Event`, `Phase` and `DealView` are the game's own,
/// as named where it is used (with `HolsteinDeal`, `Card`, `CardSet`, `RuleError`, `Seat` and
/// `Suit`).
macro_rules! holstein_deal {
    ($pack:expr) => {
        impl HolsteinDeal for Deal {
            type Action = Action;
            type Event = Event;
            type Phase = Phase;
            type View = DealView;

            const PACK: CardSet = $pack;
            const STOP: Action = Action::Stop;
            const GO_ON: Action = Action::GoOn;

            fn players(&self) -> u8 {
                Deal::players(self)
            }
            fn card_places(&self) -> Vec<CardSet> {
                Deal::card_places(self)
            }
            fn hand(&self, seat: Seat) -> CardSet {
                Deal::hand(self, seat)
            }
            fn is_over(&self) -> bool {
                Deal::is_over(self)
            }
            fn turn(&self) -> Option<Seat> {
                Deal::turn(self)
            }
            fn phase(&self) -> Phase {
                Deal::phase(self)
            }
            fn trumps(&self) -> Option<Suit> {
                self.game().and_then(|g| g.trumps)
            }
            fn legal_actions(&self, seat: Seat) -> Vec<Action> {
                Deal::legal_actions(self, seat)
            }
            fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
                Deal::check(self, seat, action)
            }
            fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
                Deal::apply(self, seat, action)
            }
            fn view(&self, viewer: Option<Seat>) -> DealView {
                Deal::view(self, viewer)
            }
            fn redact(event: &Event, viewer: Option<Seat>) -> Event {
                event.for_viewer(viewer)
            }
            fn card_played(action: Action) -> Option<Card> {
                match action {
                    Action::Play { card } => Some(card),
                    _ => None,
                }
            }
            fn final_scores(event: &Event) -> Option<&[i32]> {
                match event {
                    Event::DealOver { scores, .. } => Some(scores),
                    _ => None,
                }
            }
        }
    };
}

pub(crate) use holstein_deal;

/// Parses a suit's code: `C`, `S`, `H` or `D`.
pub fn suit(code: &str) -> Suit {
    match code {
        "C" => Suit::Clubs,
        "S" => Suit::Spades,
        "H" => Suit::Hearts,
        "D" => Suit::Diamonds,
        other => panic!("no suit {other}"),
    }
}

/// A pack in the order a Holstein deal deals it to give `hands` (by seat) with `dealer`
/// dealing: 3 cards each from the dealer's left, the `middle` (the skat, or nothing), 2 cards
/// each, and the `rest`.
pub fn arranged_pack(hands: &[CardSet], dealer: u8, middle: CardSet, rest: CardSet) -> Vec<Card> {
    let n = hands.len();
    let first = (usize::from(dealer) + 1) % n;
    let order: Vec<usize> = (0..n).map(|i| (first + i) % n).collect();
    let mut pack = Vec::with_capacity(32);
    for &seat in &order {
        pack.extend(hands[seat].iter().take(3));
    }
    pack.extend(middle.iter());
    for &seat in &order {
        pack.extend(hands[seat].iter().skip(3));
    }
    pack.extend(rest.iter());
    pack
}

/// Applies every step parsed by `step`, checking each is listed as legal first; returns all
/// events.
pub fn run<D: HolsteinDeal>(deal: &mut D, script: &[&str], step: impl Fn(&str) -> (Seat, D::Action)) -> Vec<D::Event> {
    let mut events = Vec::new();
    for line in script {
        let (seat, action) = step(line);
        assert!(
            deal.legal_actions(seat).contains(&action),
            "{line:?} is not listed as legal; legal: {:?}; phase {:?}, turn {:?}",
            deal.legal_actions(seat),
            deal.phase(),
            deal.turn()
        );
        events.extend(deal.apply(seat, action).unwrap_or_else(|e| panic!("{line:?} refused: {e}")));
    }
    events
}

/// Plays the deal out: every player plays his strongest legal card (a trump if he may, else
/// his highest rank); the declarer who may choose goes on for Durch when `durch`.
pub fn play_out<D: HolsteinDeal>(deal: &mut D, durch: bool) -> Vec<D::Event> {
    let mut events = Vec::new();
    while let Some(seat) = deal.turn() {
        let legal = deal.legal_actions(seat);
        let trumps = deal.trumps();
        let action = if legal.contains(&D::STOP) {
            if durch { D::GO_ON } else { D::STOP }
        } else {
            *legal
                .iter()
                .max_by_key(|a| match D::card_played(**a) {
                    Some(card) => (Some(card.suit()) == trumps, card.rank(), std::cmp::Reverse(card.suit())),
                    None => panic!("only cards are left to play, not {a:?}"),
                })
                .expect("something to play")
        };
        events.extend(deal.apply(seat, action).expect("legal"));
    }
    events
}

/// Parses space-separated card codes.
pub fn cards(codes: &str) -> CardSet {
    codes.split_whitespace().map(|c| c.parse::<Card>().unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// A small deterministic generator for the random players.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn subset(&mut self, from: CardSet, k: usize) -> CardSet {
        let mut cards: Vec<Card> = from.iter().collect();
        let mut out = CardSet::EMPTY;
        for _ in 0..k.min(cards.len()) {
            out.insert(cards.swap_remove(self.below(cards.len())));
        }
        out
    }
}
