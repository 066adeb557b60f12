//! The auction: a series of duels between a holder (who spoke earlier) and a challenger, over
//! Prisdorf's bids (equal heights allowed: "3 Hand" = "3 Ruten").

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::bid::{Bid, Call};
use crate::duel::{DuelBid, DuelStep, Duels, Say};
use crate::error::RuleError;
use crate::seat::Seat;

impl DuelBid for Bid {
    fn height(self) -> u8 {
        Bid::height(self)
    }

    fn is_kieker(self) -> bool {
        self == Bid::Kieker
    }
}

/// The auction's state. Speaking order: Vorhand, then clockwise, the dealer last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    /// The duels: seats, holder, challenger, standing bid, turn.
    #[serde(flatten)]
    duels: Duels<Bid>,
    /// Every call so far, in order.
    calls: ArrayVec<(Seat, Call), { Auction::MAX_CALLS }>,
}

/// What an accepted call leads to.
pub(crate) type AuctionStep = DuelStep<Bid>;

impl Auction {
    /// The most calls an auction can have: every bid raises the height (17 bids at most), each
    /// may be followed by a hold, and each player passes once.
    pub const MAX_CALLS: usize = 17 * 2 + 4;

    pub(crate) fn new(first: Seat, players: u8) -> Auction {
        Auction { duels: Duels::new(first, players), calls: ArrayVec::new() }
    }

    /// Who speaks now.
    pub fn turn(&self) -> Seat {
        self.duels.turn()
    }

    /// The highest bid so far.
    pub fn standing(&self) -> Option<Bid> {
        self.duels.standing()
    }

    /// The survivor of the duels so far.
    pub fn holder(&self) -> Option<Seat> {
        self.duels.holder()
    }

    /// The player now challenging the holder.
    pub fn challenger(&self) -> Option<Seat> {
        self.duels.challenger()
    }

    /// Every call so far.
    pub fn calls(&self) -> &[(Seat, Call)] {
        &self.calls
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
        if let Some(standing) = self.standing()
            && !self.duels.beats_standing(bid)
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
        self.duels.check_hold(kieker_eligible)
    }

    /// The calls the player to speak may make, lowest bid first.
    pub(crate) fn legal_calls(&self, min_bid: u8, kieker_eligible: bool, out: &mut impl FnMut(Call)) {
        if self.check_hold(kieker_eligible).is_ok() {
            out(Call::Hold);
        }
        let floor = self.standing().map_or(0, |b| b.height() + 1);
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
        self.calls.push((self.duels.turn(), call));
        self.duels.apply(match call {
            Call::Bid { bid } => Say::Bid(bid),
            Call::Hold => Say::Hold,
            Call::Pass => Say::Pass,
        })
    }
}
