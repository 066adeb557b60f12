//! What happened in a Tippen deal, and what each viewer may be told of it (§D9).

use serde::{Deserialize, Serialize};

use super::deal::{Choice, Outcome};
use super::rules::Sniffing;
use super::series::ScoreRow;
use crate::card::{Card, CardSet, Suit};
use crate::seat::Seat;
use crate::seed::Seed;

/// Everything hidden during a deal, shown to all once it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenReveal"))]
pub struct Reveal {
    /// The hands as dealt, by seat.
    pub dealt: Vec<CardSet>,
    /// The cards still in each hand when the deal ended.
    pub hands: Vec<CardSet>,
    /// The trump card.
    pub trump_card: Option<Card>,
    /// The talon left, top first.
    pub talon: Vec<Card>,
    /// What each seat laid away.
    pub discards: Vec<CardSet>,
    /// The seed the deal was shuffled with.
    pub seed: Seed,
}

/// One thing that happened. [`Event::for_viewer`] empties what a viewer may not see: a hand,
/// a discard, an exchange or a trump card taken unseen reaches the others as a stub with the
/// seat and the number of cards.
///
/// ```json
/// {"event": "anted", "seat": 3, "stake": 3, "pot": 3}
/// {"event": "shoved", "seat": 3}
/// {"event": "bottom_card", "seat": 1, "card": "S7", "passed": true}
/// {"event": "dealt", "number": 1, "dealer": 3, "forehand": 0,
///  "hands": [["C7", "HA", "S10"], null, null, null], "exposed": null, "dealer_sees_hand": true,
///  "talon": 19, "pot": 3, "reserve": 0, "played_for": 3}
/// {"event": "trump_turned", "card": "HK"}
/// {"event": "decided", "seat": 0, "choice": "join", "paid": 0, "pot": 3}
/// {"event": "exchanged", "seat": 0, "count": 2, "discarded": null, "received": null}
/// {"event": "card_played", "seat": 0, "card": "HQ"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The first dealer of the series is found: cards dealt face up from seat 0 until an ace.
    FirstDealer {
        /// The seat dealt the ace, who deals first.
        seat: Seat,
        /// The cards shown, in order.
        cards: Vec<Card>,
    },
    /// A seat becomes dealer and pays the stake into the pot.
    Anted {
        /// The new dealer.
        seat: Seat,
        /// What he paid.
        stake: i32,
        /// The pot now.
        pot: i32,
    },
    /// The dealer shoved: the next seat becomes dealer.
    Shoved {
        /// Who shoved.
        seat: Seat,
    },
    /// Hop and jump: the bottom card of the shuffled pack, shown to all.
    BottomCard {
        /// The dealer who shuffled.
        seat: Seat,
        /// The card.
        card: Card,
        /// An ace or a seven: the deal passes to the next seat.
        passed: bool,
    },
    /// The cards are dealt: each seat sees only its own hand (the dealer not even his while he
    /// decides whether to knock).
    Dealt {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The seat to the dealer's left.
        forehand: Seat,
        /// Each seat's hand; `null` where the viewer may not see it.
        hands: Vec<Option<CardSet>>,
        /// The 1821 presets: the dealer's last card, dealt face up; its suit is trumps.
        exposed: Option<Card>,
        /// Whether the dealer sees his hand now (not while he may knock).
        dealer_sees_hand: bool,
        /// How many cards are left in the talon.
        talon: u8,
        /// The pot played for (after every ante of the deal).
        pot: i32,
        /// The reserve kept aside.
        reserve: i32,
        /// The pot played for, P.
        played_for: i32,
    },
    /// The dealer knocked: he took the trump card unseen; its suit is trumps.
    Knocked {
        /// The dealer.
        seat: Seat,
        /// Trumps.
        suit: Suit,
        /// His hand now, the trump card included (the dealer only).
        hand: Option<CardSet>,
    },
    /// The dealer did not knock; he now sees his hand.
    NotKnocked {
        /// The dealer.
        seat: Seat,
        /// His hand (the dealer only).
        hand: Option<CardSet>,
    },
    /// The dealer sniffed and took the trump card.
    Sniffed {
        /// The dealer.
        seat: Seat,
        /// How: `alvensleben` turns the card for all first, `grupp` takes it unseen.
        kind: Sniffing,
        /// Trumps.
        suit: Suit,
        /// The trump card (everyone after alvensleben, the dealer only after grupp).
        trump_card: Option<Card>,
    },
    /// The dealer did not sniff.
    NotSniffed {
        /// The dealer.
        seat: Seat,
    },
    /// The dealer laid a card away face down.
    Discarded {
        /// The dealer.
        seat: Seat,
        /// How many cards.
        count: u8,
        /// The cards (the dealer only).
        cards: Option<CardSet>,
    },
    /// The trump card is turned face up; its suit is trumps.
    TrumpTurned {
        /// The card.
        card: Card,
    },
    /// A seat answered: play, play and rob, pass, or drop out.
    Decided {
        /// Who answered.
        seat: Seat,
        /// The answer.
        choice: Choice,
        /// What he paid at once (the stake, when dropping out).
        paid: i32,
        /// The pot now.
        pot: i32,
    },
    /// A player robbed: the trump card into his hand, the seven of trumps face up in its place.
    Robbed {
        /// The robber.
        seat: Seat,
        /// The trump card he took.
        trump_card: Card,
        /// The seven he laid out.
        seven: Card,
    },
    /// The decisions are over: who plays, in turn from forehand.
    Playing {
        /// The active seats.
        seats: Vec<Seat>,
    },
    /// A single player takes the pot played for, without play.
    TookPot {
        /// The player.
        seat: Seat,
        /// What he took.
        amount: i32,
        /// The pot now.
        pot: i32,
    },
    /// A player exchanged cards with the talon.
    Exchanged {
        /// Who.
        seat: Seat,
        /// How many cards.
        count: u8,
        /// The cards he laid away (him only).
        discarded: Option<CardSet>,
        /// The cards he took (him only).
        received: Option<CardSet>,
    },
    /// A card is played.
    CardPlayed {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A trick is complete.
    TrickTaken {
        /// Who took it (and leads next).
        seat: Seat,
    },
    /// An active player's settlement.
    Settled {
        /// The player.
        seat: Seat,
        /// Tricks he took.
        tricks: u8,
        /// His shares of the pot.
        received: i32,
        /// His bête or penalty.
        paid: i32,
    },
    /// The deal is over: the outcome, each seat's change in the deal, every hidden card.
    DealOver {
        /// How it ended.
        outcome: Outcome,
        /// Counters each seat paid (negative) or received in this deal, antes included.
        scores: Vec<i32>,
        /// Everything that was hidden.
        reveal: Box<Reveal>,
    },
    /// The deal's row of the scoresheet.
    Scored {
        /// The row.
        row: ScoreRow,
    },
    /// The series has played its last deal; pot and reserve stay unclaimed.
    SeriesOver {
        /// Each seat's final balance.
        balances: Vec<i32>,
        /// The pot left.
        pot: i32,
        /// The reserve left.
        reserve: i32,
    },
}

/// `value` if `viewer` is `seat`, else `None`.
fn only<T: Copy>(value: Option<T>, seat: Seat, viewer: Option<Seat>) -> Option<T> {
    value.filter(|_| viewer == Some(seat))
}

impl Event {
    /// This event as `viewer` may see it (`None`: a spectator).
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        let mut event = self.clone();
        match &mut event {
            Event::Dealt { hands, dealer, dealer_sees_hand, .. } => {
                for (i, hand) in hands.iter_mut().enumerate() {
                    let seat = Seat(i as u8);
                    let own = viewer == Some(seat) && (seat != *dealer || *dealer_sees_hand);
                    if !own {
                        *hand = None;
                    }
                }
            }
            Event::Knocked { seat, hand, .. } | Event::NotKnocked { seat, hand } => *hand = only(*hand, *seat, viewer),
            Event::Sniffed { seat, kind: Sniffing::Grupp, trump_card, .. } => {
                *trump_card = only(*trump_card, *seat, viewer);
            }
            Event::Discarded { seat, cards, .. } => *cards = only(*cards, *seat, viewer),
            Event::Exchanged { seat, discarded, received, .. } => {
                *discarded = only(*discarded, *seat, viewer);
                *received = only(*received, *seat, viewer);
            }
            _ => {}
        }
        event
    }
}
