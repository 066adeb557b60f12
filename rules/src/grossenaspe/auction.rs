//! Großenaspe's auction: the duels of Prisdorf (`RULES.md` §3) over the order of §A4, where no
//! two bids are equal, so that a hold owes exactly the standing bid.
//!
//! Prisdorf's [`crate::Auction`] is not reused: its calls, its standing bid and its errors carry
//! Prisdorf's [`crate::Bid`] in their public JSON (state, events and schema), so making it
//! generic over the bid would change the names and shapes the protocol publishes. The duel
//! bookkeeping is the same and is tested the same way.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::rules::{Bid, Call};
use crate::deal::Seat;
use crate::error::RuleError;

/// The auction's state. Speaking order: forehand, then clockwise, the dealer last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    first: Seat,
    players: u8,
    /// How many players have been called into the auction so far.
    next: u8,
    holder: Option<Seat>,
    challenger: Option<Seat>,
    standing: Option<Bid>,
    held: bool,
    turn: Seat,
    calls: ArrayVec<(Seat, Call), { Auction::MAX_CALLS }>,
}

/// What an accepted call leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuctionStep {
    Next(Seat),
    Won { declarer: Seat, bid: Bid, held: bool },
    AllPassed,
}

impl Auction {
    /// The most calls an auction can have: 12 bids, each followed by at most one hold, and one
    /// pass per player (five at most).
    pub const MAX_CALLS: usize = 12 * 2 + 5;

    pub(crate) fn new(first: Seat, players: u8) -> Auction {
        Auction {
            first,
            players,
            next: 1,
            holder: None,
            challenger: None,
            standing: None,
            held: false,
            turn: first,
            calls: ArrayVec::new(),
        }
    }

    /// Who speaks now.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The highest bid so far.
    pub fn standing(&self) -> Option<Bid> {
        self.standing
    }

    /// The survivor of the duels so far.
    pub fn holder(&self) -> Option<Seat> {
        self.holder
    }

    /// The player now challenging the holder.
    pub fn challenger(&self) -> Option<Seat> {
        self.challenger
    }

    /// Every call so far.
    pub fn calls(&self) -> &[(Seat, Call)] {
        &self.calls
    }

    fn holder_answers(&self) -> bool {
        self.holder == Some(self.turn) && self.challenger.is_some()
    }

    pub(crate) fn check_bid(&self, bid: Bid, min_bid: u8, kieker_eligible: bool) -> Result<(), RuleError> {
        if !bid.is_valid() {
            return Err(RuleError::NoSuchBid);
        }
        if let Bid::Tricks { tricks, .. } = bid
            && tricks < min_bid
        {
            return Err(RuleError::BidBelowMinimum { min: min_bid });
        }
        if let Some(standing) = self.standing
            && bid.height() <= standing.height()
        {
            return Err(RuleError::BidNotHigher { standing });
        }
        if bid == Bid::Kieker && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    pub(crate) fn check_hold(&self, kieker_eligible: bool) -> Result<(), RuleError> {
        if !self.holder_answers() {
            return Err(RuleError::HoldNotAllowed);
        }
        if self.standing == Some(Bid::Kieker) && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    pub(crate) fn legal_calls(&self, min_bid: u8, kieker_eligible: bool, out: &mut impl FnMut(Call)) {
        if self.check_hold(kieker_eligible).is_ok() {
            out(Call::Hold);
        }
        for bid in Bid::ALL {
            if self.check_bid(bid, min_bid, kieker_eligible).is_ok() {
                out(Call::Bid { bid });
            }
        }
        out(Call::Pass);
    }

    pub(crate) fn apply(&mut self, call: Call) -> AuctionStep {
        let seat = self.turn;
        self.calls.push((seat, call));
        match call {
            Call::Bid { bid } => {
                self.standing = Some(bid);
                match (self.holder, self.challenger) {
                    (None, _) => {
                        self.holder = Some(seat);
                        self.held = false;
                        self.next_challenger()
                    }
                    (Some(holder), Some(challenger)) if holder == seat => {
                        self.held = false;
                        self.speak(challenger)
                    }
                    (Some(holder), _) => self.speak(holder),
                }
            }
            Call::Hold => {
                self.held = true;
                let challenger = self.challenger.unwrap_or(seat);
                self.speak(challenger)
            }
            Call::Pass => match (self.holder, self.challenger) {
                (None, _) => match self.take_next() {
                    Some(next) => self.speak(next),
                    None => AuctionStep::AllPassed,
                },
                (Some(holder), Some(challenger)) if holder == seat => {
                    self.holder = Some(challenger);
                    self.held = false;
                    self.next_challenger()
                }
                (Some(_), _) => self.next_challenger(),
            },
        }
    }

    fn speak(&mut self, seat: Seat) -> AuctionStep {
        self.turn = seat;
        AuctionStep::Next(seat)
    }

    fn take_next(&mut self) -> Option<Seat> {
        if self.next >= self.players {
            return None;
        }
        let seat = Seat((self.first.0 + self.next) % self.players);
        self.next += 1;
        Some(seat)
    }

    fn next_challenger(&mut self) -> AuctionStep {
        self.challenger = self.take_next();
        match (self.challenger, self.holder, self.standing) {
            (Some(challenger), _, _) => self.speak(challenger),
            (None, Some(declarer), Some(bid)) => AuctionStep::Won { declarer, bid, held: self.held },
            _ => AuctionStep::AllPassed,
        }
    }
}
