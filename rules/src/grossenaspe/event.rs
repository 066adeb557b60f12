//! What happened in a deal of Großenaspe Fipsen, and what each viewer may be told of it (§A9).

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
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeReveal"))]
pub struct Reveal {
    /// The hands as dealt, by seat.
    pub dealt: Vec<CardSet>,
    /// The cards still in each hand when the deal ended, by seat.
    pub hands: Vec<CardSet>,
    /// The skat as dealt.
    pub skat: CardSet,
    /// The talon as dealt.
    pub talon: CardSet,
    /// The declarer's discards.
    pub discards: CardSet,
    /// A Kieker's dealt hand, laid aside.
    pub laid_aside: CardSet,
    /// The seed the deal was shuffled with.
    pub seed: Seed,
}

/// One thing that happened. Fields holding cards some viewers may not see are `Option`s:
/// [`Event::for_viewer`] empties them, leaving the seat and the count.
///
/// ```json
/// {"event": "card_played", "seat": 2, "card": "SA"}
/// {"event": "discarded", "seat": 1, "count": 2, "cards": null}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The scribe is drawn at the start of a series: cards turned one at a time to seats 0, 1,
    /// 2, … until a club turns up (§A2). The first dealer is his left neighbour.
    ScribeDrawn {
        /// The scribe.
        scribe: Seat,
        /// The cards turned, in order (the last one a club).
        turned: Vec<Card>,
    },
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
    /// The declarer of a number bid takes the skat.
    SkatTaken {
        /// The declarer.
        seat: Seat,
        /// The two cards; `null` for everyone else.
        skat: Option<CardSet>,
    },
    /// A Kieker shows his dealt hand to one opponent (option `kieker_show`).
    KiekerShown {
        /// The Kieker.
        seat: Seat,
        /// The opponent who sees it.
        to: Seat,
        /// The hand; `null` for everyone but the two of them.
        hand: Option<CardSet>,
    },
    /// A Kieker lays his dealt hand aside and takes skat and talon.
    KiekerPickedUp {
        /// The Kieker.
        seat: Seat,
        /// The number of cards he now holds.
        count: u8,
        /// The skat; `null` for everyone else.
        skat: Option<CardSet>,
        /// The talon; `null` for everyone else.
        talon: Option<CardSet>,
    },
    /// The declarer lays cards away.
    Discarded {
        /// The declarer.
        seat: Seat,
        /// How many.
        count: u8,
        /// The cards; `null` for everyone else.
        cards: Option<CardSet>,
    },
    /// Trumps are named.
    TrumpsNamed {
        /// The declarer.
        seat: Seat,
        /// The trump suit.
        suit: Suit,
        /// The contract left no other choice (a Gute bid).
        forced: bool,
    },
    /// A Kieker folds: −5.
    Folded {
        /// The Kieker.
        seat: Seat,
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
    /// This event as `viewer` may see it (`None`: a spectator): hidden cards are emptied, the
    /// seat and the count stay.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        let own = |seat: Seat| viewer == Some(seat);
        let keep = |cards: Option<CardSet>, allowed: bool| if allowed { cards } else { None };
        match self {
            Event::Dealt { number, dealer, forehand, hands } => Event::Dealt {
                number: *number,
                dealer: *dealer,
                forehand: *forehand,
                hands: own_hand_only(hands, viewer),
            },
            Event::SkatTaken { seat, skat } => Event::SkatTaken { seat: *seat, skat: keep(*skat, own(*seat)) },
            Event::KiekerShown { seat, to, hand } => {
                Event::KiekerShown { seat: *seat, to: *to, hand: keep(*hand, own(*seat) || own(*to)) }
            }
            Event::KiekerPickedUp { seat, count, skat, talon } => Event::KiekerPickedUp {
                seat: *seat,
                count: *count,
                skat: keep(*skat, own(*seat)),
                talon: keep(*talon, own(*seat)),
            },
            Event::Discarded { seat, count, cards } => {
                Event::Discarded { seat: *seat, count: *count, cards: keep(*cards, own(*seat)) }
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
