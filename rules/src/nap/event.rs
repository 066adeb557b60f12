//! What happened in a Nap deal, and what each viewer may be told of it
//! (docs/rules/nap.md#n8-what-each-player-sees).

use serde::{Deserialize, Serialize};

use super::cards::{NapCard, NapCards};
use super::deal::Outcome;
use super::rules::Bid;
use super::series::ScoreRow;
use crate::card::Suit;
use crate::seat::Seat;

/// One thing that happened. [`Event::for_viewer`] empties the cards a viewer may not see.
///
/// ```json
/// {"event": "dealt", "number": 1, "dealer": 3, "forehand": 0,
///  "hands": [["C2", "H9", "HA", "S5", "DK"], null, null, null], "stock": 32, "widow": false,
///  "antes": [0, 0, 0, 0], "pool": 0}
/// {"event": "exchanged", "seat": 1, "count": 2, "laid_away": null, "drawn": null, "pool": 2}
/// {"event": "peeked", "seat": 2, "card": null, "pool": 3}
/// {"event": "bid", "seat": 2, "bid": "nap"}
/// {"event": "trumps", "suit": "hearts"}
/// {"event": "deal_over", "outcome": {"...": "..."}, "scores": [-10, 30, -10, -10], "pool": 0}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new deal: each seat sees only its own hand.
    Dealt {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The player to the dealer's left, who buys and bids first.
        forehand: Seat,
        /// Each seat's five cards; `null` where the viewer may not see them.
        hands: Vec<Option<NapCards>>,
        /// How many cards the stock holds (the widow apart).
        stock: u8,
        /// Whether a widow lies face down for peeping.
        widow: bool,
        /// What each seat put into the pool as the deal began (negative).
        antes: Vec<i32>,
        /// The pool after the antes.
        pool: i32,
    },
    /// Purchase: a player bought nothing.
    Kept {
        /// Who.
        seat: Seat,
    },
    /// Purchase: a player laid cards away and bought as many, a counter each into the pool.
    Exchanged {
        /// Who.
        seat: Seat,
        /// How many cards.
        count: u8,
        /// The cards laid away; `null` for everyone else.
        laid_away: Option<NapCards>,
        /// The cards bought; `null` for everyone else.
        drawn: Option<NapCards>,
        /// The pool now.
        pool: i32,
    },
    /// Peep: a player looked at the widow for a counter into the pool.
    Peeked {
        /// Who.
        seat: Seat,
        /// The widow; `null` for everyone else.
        card: Option<NapCard>,
        /// The pool now.
        pool: i32,
    },
    /// A player passed.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// A player bid.
    Bid {
        /// Who.
        seat: Seat,
        /// The bid.
        bid: Bid,
    },
    /// Everybody passed: the deal is thrown in.
    ThrownIn,
    /// The auction is over: the highest bidder is the declarer.
    Declared {
        /// The declarer.
        seat: Seat,
        /// His bid.
        bid: Bid,
    },
    /// Peep: the declarer took the widow into his hand.
    WidowTaken {
        /// The declarer.
        seat: Seat,
        /// The widow; `null` for everyone else.
        card: Option<NapCard>,
    },
    /// Peep: the declarer left the widow where it lies.
    WidowLeft {
        /// The declarer.
        seat: Seat,
    },
    /// Peep: the declarer laid a card away for the widow.
    Discarded {
        /// The declarer.
        seat: Seat,
        /// The card; `null` for everyone else.
        cards: Option<NapCards>,
    },
    /// The trump suit is fixed: by the suit of the first card led, or named after a joker lead.
    Trumps {
        /// The trump suit.
        suit: Suit,
    },
    /// A card is played.
    CardPlayed {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: NapCard,
    },
    /// A trick is complete.
    TrickTaken {
        /// Who took it (and leads next).
        seat: Seat,
    },
    /// The deal is over: the outcome and what each seat paid or took in it. Nothing hidden is
    /// revealed.
    DealOver {
        /// How it ended.
        outcome: Outcome,
        /// What each seat paid (negative) or took in this deal: antes, peeps, purchases and
        /// the settlement.
        scores: Vec<i32>,
        /// The pool now.
        pool: i32,
    },
    /// The deal's row of the scoresheet.
    Scored {
        /// The row.
        row: ScoreRow,
    },
    /// The series has played its last deal.
    SeriesOver {
        /// Each seat's final balance.
        totals: Vec<i32>,
        /// What is left in the pool.
        pool: i32,
    },
}

impl Event {
    /// This event as `viewer` may see it (`None`: a spectator): the other hands, the cards laid
    /// away and bought, and the widow are emptied for everyone but the seat they belong to.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        let own = |seat: Seat| viewer == Some(seat);
        match self {
            Event::Dealt { number, dealer, forehand, hands, stock, widow, antes, pool } => Event::Dealt {
                number: *number,
                dealer: *dealer,
                forehand: *forehand,
                hands: hands.iter().enumerate().map(|(i, h)| h.filter(|_| own(Seat(i as u8)))).collect(),
                stock: *stock,
                widow: *widow,
                antes: antes.clone(),
                pool: *pool,
            },
            Event::Exchanged { seat, count, laid_away, drawn, pool } => Event::Exchanged {
                seat: *seat,
                count: *count,
                laid_away: laid_away.filter(|_| own(*seat)),
                drawn: drawn.filter(|_| own(*seat)),
                pool: *pool,
            },
            Event::Peeked { seat, card, pool } => {
                Event::Peeked { seat: *seat, card: card.filter(|_| own(*seat)), pool: *pool }
            }
            Event::WidowTaken { seat, card } => Event::WidowTaken { seat: *seat, card: card.filter(|_| own(*seat)) },
            Event::Discarded { seat, cards } => Event::Discarded { seat: *seat, cards: cards.filter(|_| own(*seat)) },
            other => other.clone(),
        }
    }
}
