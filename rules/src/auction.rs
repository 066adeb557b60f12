//! The auction: a series of duels between a holder (who spoke earlier) and a challenger.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::bid::{Bid, Call};
use crate::deal::Seat;
use crate::error::RuleError;

/// The auction's state. Speaking order: Vorhand, then clockwise, the dealer last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    /// Vorhand, who speaks first; the others follow clockwise.
    first: Seat,
    /// The number of players.
    players: u8,
    /// Index in `order` of the next player who has not spoken yet.
    next: u8,
    /// The survivor of the duels so far (the first player to open, then the winner of each duel).
    holder: Option<Seat>,
    /// The player challenging the holder.
    challenger: Option<Seat>,
    /// The highest bid so far.
    standing: Option<Bid>,
    /// Whether the holder's last call was a hold (rather than a bid of his own).
    held: bool,
    /// Who speaks now.
    turn: Seat,
    /// Every call so far, in order.
    calls: ArrayVec<(Seat, Call), { Auction::MAX_CALLS }>,
}

/// What an accepted call leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuctionStep {
    /// The auction goes on with this seat to speak.
    Next(Seat),
    /// The auction is over: `declarer` won with the standing bid, by holding or by his own bid.
    Won { declarer: Seat, bid: Bid, held: bool },
    /// Everybody passed.
    AllPassed,
}

impl Auction {
    /// The most calls an auction can have: every bid raises the height (17 bids at most), each
    /// may be followed by a hold, and each player passes once.
    pub const MAX_CALLS: usize = 17 * 2 + 4;

    pub(crate) fn new(first: Seat, players: u8) -> Auction {
        let turn = first;
        Auction {
            first,
            players,
            next: 1,
            holder: None,
            challenger: None,
            standing: None,
            held: false,
            turn,
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

    /// Whether the player to speak is the holder answering a challenge (he may hold).
    fn holder_answers(&self) -> bool {
        self.holder == Some(self.turn) && self.challenger.is_some()
    }

    /// Checks a bid by the player to speak.
    pub(crate) fn check_bid(&self, bid: Bid, min_bid: u8, kieker_eligible: bool) -> Result<(), RuleError> {
        if !bid.is_valid() {
            return Err(RuleError::BidInvalid);
        }
        if let Bid::Tricks { tricks, .. } = bid
            && tricks < min_bid
        {
            return Err(RuleError::BidBelowMinimum { min: min_bid });
        }
        if let Some(standing) = self.standing
            && bid.height() <= standing.height()
        {
            return Err(RuleError::BidTooLow { standing });
        }
        if bid == Bid::Kieker && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    /// Checks a hold by the player to speak.
    pub(crate) fn check_hold(&self, kieker_eligible: bool) -> Result<(), RuleError> {
        if !self.holder_answers() {
            return Err(RuleError::HoldNotAllowed);
        }
        if self.standing == Some(Bid::Kieker) && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    /// The calls the player to speak may make, lowest bid first.
    pub(crate) fn legal_calls(&self, min_bid: u8, kieker_eligible: bool, out: &mut impl FnMut(Call)) {
        if self.check_hold(kieker_eligible).is_ok() {
            out(Call::Hold);
        }
        let floor = self.standing.map_or(0, |b| b.height() + 1);
        for bid in Bid::ALL {
            let allowed = match bid {
                Bid::Kieker => kieker_eligible,
                Bid::Tricks { tricks, .. } => tricks >= min_bid,
            };
            if allowed && bid.height() >= floor {
                out(Call::Bid { bid });
            }
        }
        out(Call::Pass);
    }

    /// Applies a call already checked.
    pub(crate) fn apply(&mut self, call: Call) -> AuctionStep {
        let seat = self.turn;
        self.calls.push((seat, call));
        match call {
            Call::Bid { bid } => {
                self.standing = Some(bid);
                match (self.holder, self.challenger) {
                    (None, _) => {
                        // The opening bid: the opener holds against the next player.
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
                // Accepted only from the holder answering a challenger (see `check_hold`).
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
                    // The holder gives way: the challenger survives with his own bid.
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
