//! What happened in a deal, and what each viewer may be told of it.

use serde::{Deserialize, Serialize};

use super::bid::Call;
use super::deal::{Contract, Outcome};
use super::series::ScoreRow;
use crate::card::{Card, CardSet, Suit};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::trick::own_hand_only;
/// Everything hidden during a deal, shown to all once it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Reveal {
    /// The hands as dealt, by seat.
    pub dealt: Vec<CardSet>,
    /// The cards still in each hand when the deal ended, by seat.
    pub hands: Vec<CardSet>,
    /// The skat as dealt.
    pub skat: CardSet,
    /// The stock as dealt.
    pub stock: CardSet,
    /// The declarer's discards.
    pub discards: CardSet,
    /// A three-player Kieker's dealt hand, thrown away.
    pub thrown: CardSet,
    /// The seed the deal was shuffled with, to check the deal.
    pub seed: Seed,
}

/// One thing that happened. Fields holding cards some viewers may not see are `Option`s:
/// [`Event::for_viewer`] empties them for everyone else.
///
/// ```json
/// {"event": "card_played", "seat": 2, "card": "SA"}
/// {"event": "skat_taken", "seat": 1, "skat": null}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new deal: each seat sees only its own hand.
    Dealt {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The dealer.
        dealer: Seat,
        /// The player to the dealer's left, who speaks and (by default) leads first.
        vorhand: Seat,
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
    /// A Kieker's dealt hand is shown to the opponent on his left.
    KiekerShown {
        /// The Kieker.
        seat: Seat,
        /// The opponent who sees it.
        to: Seat,
        /// The hand; `null` for everyone else.
        hand: Option<CardSet>,
    },
    /// A Kieker takes skat and stock (with three players, throwing his dealt hand away).
    KiekerPickedUp {
        /// The Kieker.
        seat: Seat,
        /// The skat; `null` for everyone else.
        skat: Option<CardSet>,
        /// The stock; `null` for everyone else.
        stock: Option<CardSet>,
        /// Three players: the dealt hand thrown away; `null` otherwise and for everyone else.
        thrown: Option<CardSet>,
    },
    /// The declarer picks up the skat.
    SkatTaken {
        /// The declarer.
        seat: Seat,
        /// The two cards; `null` for everyone else.
        skat: Option<CardSet>,
    },
    /// The declarer plays Hand (without the skat).
    HandChosen {
        /// The declarer.
        seat: Seat,
        /// The contract left no other choice.
        forced: bool,
    },
    /// The declarer lays away cards.
    Discarded {
        /// The declarer.
        seat: Seat,
        /// The cards; `null` for everyone else.
        cards: Option<CardSet>,
    },
    /// Trumps are named; diamonds is Ruten.
    TrumpsNamed {
        /// The declarer.
        seat: Seat,
        /// The trump suit.
        suit: Suit,
        /// The contract left no other choice.
        forced: bool,
    },
    /// An opponent says Kontra.
    Kontra {
        /// The opponent.
        seat: Seat,
    },
    /// The declarer says Rekontra.
    Rekontra {
        /// The declarer.
        seat: Seat,
    },
    /// A player declines to say Kontra or Rekontra.
    Declined {
        /// Who declined.
        seat: Seat,
    },
    /// A Kieker gives up.
    GaveUp {
        /// The Kieker.
        seat: Seat,
    },
    /// A Siebener Fips is laid on the table.
    SiebenerFips {
        /// Who announced it.
        seat: Seat,
        /// The four sevens and the ace shown.
        cards: CardSet,
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
    /// This event as `viewer` may see it (`None`: a spectator): hidden cards are emptied.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        let own = |seat: Seat| viewer == Some(seat);
        let keep = |cards: Option<CardSet>, allowed: bool| if allowed { cards } else { None };
        match self {
            Event::Dealt { number, dealer, vorhand, hands } => Event::Dealt {
                number: *number,
                dealer: *dealer,
                vorhand: *vorhand,
                hands: own_hand_only(hands, viewer),
            },
            Event::KiekerShown { seat, to, hand } => {
                Event::KiekerShown { seat: *seat, to: *to, hand: keep(*hand, own(*seat) || own(*to)) }
            }
            Event::KiekerPickedUp { seat, skat, stock, thrown } => Event::KiekerPickedUp {
                seat: *seat,
                skat: keep(*skat, own(*seat)),
                stock: keep(*stock, own(*seat)),
                thrown: keep(*thrown, own(*seat)),
            },
            Event::SkatTaken { seat, skat } => Event::SkatTaken { seat: *seat, skat: keep(*skat, own(*seat)) },
            Event::Discarded { seat, cards } => Event::Discarded { seat: *seat, cards: keep(*cards, own(*seat)) },
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
