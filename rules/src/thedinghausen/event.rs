//! What happened in a Thedinghausen deal, and what each viewer may be told of it (§C8).

use serde::{Deserialize, Serialize};

use super::deal::Outcome;
use super::series::ScoreRow;
use crate::card::{Card, CardSet};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::trick::own_hand_only;

/// Everything hidden during a deal, shown to all once it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenReveal"))]
pub struct Reveal {
    /// The hands as dealt, by seat.
    pub dealt: Vec<CardSet>,
    /// The cards still in each hand when the deal ended (all five after a round won mid-deal).
    pub hands: Vec<CardSet>,
    /// The six cards set aside.
    pub unused: CardSet,
    /// The seed the deal was shuffled with.
    pub seed: Seed,
}

/// One thing that happened. [`Event::for_viewer`] empties the hands a viewer may not see.
///
/// ```json
/// {"event": "dealt", "number": 3, "round": 1, "dealer": 2, "forehand": 3, "trump_card": "HK",
///  "hands": [null, null, null, ["C7", "S10", "HA", "H9", "DQ"], null],
///  "counts": [4, 2, 0, 1, 3], "anted": false, "pot": 5}
/// {"event": "announced", "seat": 3}
/// {"event": "fipsen_lost", "seat": 3, "penalty": 5, "pot": 10}
/// {"event": "round_won", "seat": 1, "round": 1, "pot": 10}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new deal: each seat sees only its own hand; the turned card is public.
    Dealt {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The round's number, from 1.
        round: u32,
        /// The dealer.
        dealer: Seat,
        /// The player to the dealer's left, who speaks first and leads.
        forehand: Seat,
        /// The turned-up card: trumps are its suit; it stays out of play.
        trump_card: Card,
        /// Each seat's five cards; `null` where the viewer may not see them.
        hands: Vec<Option<CardSet>>,
        /// Each seat's round count as the deal begins.
        counts: Vec<u8>,
        /// A new round begins: every player paid 1 into the pot.
        anted: bool,
        /// The round pot.
        pot: i32,
    },
    /// A player announces fipsen.
    Announced {
        /// The announcer.
        seat: Seat,
    },
    /// A player does not announce.
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// A card is played.
    CardPlayed {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A trick is complete; it counts for its winner at once.
    TrickTaken {
        /// Who took it (and leads next).
        seat: Seat,
    },
    /// Another player took a trick: the announcer pays the penalty into the pot.
    FipsenLost {
        /// The announcer.
        seat: Seat,
        /// What he paid.
        penalty: i32,
        /// The pot now.
        pot: i32,
    },
    /// The announcer took all five tricks: five more are credited.
    FipsenWon {
        /// The announcer.
        seat: Seat,
        /// His round count now.
        count: u8,
    },
    /// The round ended before the fifth trick with the fipsen running: it is void.
    FipsenVoid {
        /// The announcer.
        seat: Seat,
    },
    /// A player reached ten tricks: he wins the round and takes the pot.
    RoundWon {
        /// The winner.
        seat: Seat,
        /// The round's number.
        round: u32,
        /// What he took.
        pot: i32,
    },
    /// The deal is over: the outcome, what each seat paid or took in it, and every hidden card.
    DealOver {
        /// How it ended.
        outcome: Outcome,
        /// Points each seat paid (negative) or took in this deal.
        scores: Vec<i32>,
        /// Everything that was hidden.
        reveal: Box<Reveal>,
    },
    /// A row of the scoresheet: the deal's, then the round's when it was won.
    Scored {
        /// The row.
        row: ScoreRow,
    },
    /// The series has played its last round.
    SeriesOver {
        /// Each seat's final balance.
        balances: Vec<i32>,
        /// Each seat's slips (rounds won).
        slips: Vec<u32>,
    },
}

impl Event {
    /// This event as `viewer` may see it (`None`: a spectator): the other hands are emptied.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        match self {
            Event::Dealt { number, round, dealer, forehand, trump_card, hands, counts, anted, pot } => Event::Dealt {
                number: *number,
                round: *round,
                dealer: *dealer,
                forehand: *forehand,
                trump_card: *trump_card,
                hands: own_hand_only(hands, viewer),
                counts: counts.clone(),
                anted: *anted,
                pot: *pot,
            },
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
