//! What happened in a Mecklenburg deal, and what each viewer may be told of it (§B6).

use serde::{Deserialize, Serialize};

use super::deal::{Contract, Outcome};
use super::rules::Call;
use super::series::ScoreRow;
use crate::card::{Card, CardSet, Suit};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::trick::own_hand_only;

/// Everything hidden during a deal, shown to all once it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgReveal"))]
pub struct Reveal {
    /// The hands as dealt, by seat.
    pub dealt: Vec<CardSet>,
    /// The cards still in each hand when the deal ended, by seat.
    pub hands: Vec<CardSet>,
    /// The Dutt as dealt.
    pub dutt: CardSet,
    /// The declarer's discards.
    pub discards: CardSet,
    /// The seed the deal was shuffled with.
    pub seed: Seed,
}

/// One thing that happened. Fields holding cards some viewers may not see are `Option`s:
/// [`Event::for_viewer`] empties them, leaving the seat and the count.
///
/// ```json
/// {"event": "dutt_taken", "seat": 2, "count": 5, "dutt": null}
/// {"event": "discarded", "seat": 2, "count": 5, "cards": null}
/// {"event": "trumps_named", "seat": 2, "suit": "diamonds", "forced": true}
/// {"event": "card_played", "seat": 3, "card": "DA"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new deal: each seat sees only its own hand.
    Dealt {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The player to the dealer's left, who speaks first.
        forehand: Seat,
        /// Each seat's five cards; `null` where the viewer may not see them.
        hands: Vec<Option<CardSet>>,
    },
    /// A call in the auction.
    Called {
        /// Who called.
        seat: Seat,
        /// Bid, hold or pass.
        call: Call,
    },
    /// The auction is won.
    AuctionWon {
        /// The declarer.
        declarer: Seat,
        /// What he owes.
        contract: Contract,
    },
    /// The declarer takes the Dutt into his hand.
    DuttTaken {
        /// The declarer.
        seat: Seat,
        /// How many cards (five).
        count: u8,
        /// The Dutt; `null` for everyone else.
        dutt: Option<CardSet>,
    },
    /// The declarer lays five cards away.
    Discarded {
        /// The declarer.
        seat: Seat,
        /// How many.
        count: u8,
        /// The cards; `null` for everyone else.
        cards: Option<CardSet>,
    },
    /// Trumps are named: diamonds is Ruten, the Rutenas the only trump.
    TrumpsNamed {
        /// The declarer.
        seat: Seat,
        /// The trump suit.
        suit: Suit,
        /// The contract left no choice (a Ruten bid).
        forced: bool,
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
    /// The declarer stops after taking his tricks without a loss.
    Stopped {
        /// The declarer.
        seat: Seat,
    },
    /// The declarer plays on for Durch.
    WentOn {
        /// The declarer.
        seat: Seat,
    },
    /// The deal is over: the outcome, each seat's score, and every hidden card.
    DealOver {
        /// How it ended.
        outcome: Outcome,
        /// Points for each seat in this deal.
        scores: Vec<i32>,
        /// Everything that was hidden.
        reveal: Box<Reveal>,
    },
    /// The deal's row on the scoresheet.
    Scored {
        /// The row.
        row: ScoreRow,
    },
    /// The series has played its last deal.
    SeriesOver {
        /// Each seat's final total.
        totals: Vec<i32>,
    },
}

impl Event {
    /// This event as `viewer` may see it (`None`: a spectator): the other hands, the Dutt and
    /// the discards are emptied for all but their owner; the seat and the count stay.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        let mine = |seat: &Seat, cards: &Option<CardSet>| cards.filter(|_| viewer == Some(*seat));
        match self {
            Event::Dealt { number, dealer, forehand, hands } => Event::Dealt {
                number: *number,
                dealer: *dealer,
                forehand: *forehand,
                hands: own_hand_only(hands, viewer),
            },
            Event::DuttTaken { seat, count, dutt } => {
                Event::DuttTaken { seat: *seat, count: *count, dutt: mine(seat, dutt) }
            }
            Event::Discarded { seat, count, cards } => {
                Event::Discarded { seat: *seat, count: *count, cards: mine(seat, cards) }
            }
            other => other.clone(),
        }
    }
}

impl crate::trick::PlayEvents for Event {
    fn card_played(seat: Seat, card: Card) -> Self {
        Event::CardPlayed { seat, card }
    }

    fn trick_taken(seat: Seat) -> Self {
        Event::TrickTaken { seat }
    }
}
