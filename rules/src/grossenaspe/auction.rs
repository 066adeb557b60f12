//! Großenaspe's auction: the duels of Prisdorf (docs/rules/prisdorf.md §3, the shared duel core) over the
//! order of §A4, where no two bids are equal, so that a hold owes exactly the standing bid.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::rules::{Bid, Call};
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

/// The auction's state. Speaking order: forehand, then clockwise, the dealer last.
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
    /// The most calls an auction can have: 12 bids, each followed by at most one hold, and one
    /// pass per player (five at most).
    pub const MAX_CALLS: usize = 12 * 2 + 5;

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

    pub(crate) fn check_bid(&self, bid: Bid, min_bid: u8, kieker_eligible: bool) -> Result<(), RuleError> {
        if !bid.is_valid() {
            return Err(RuleError::NoSuchBid);
        }
        if let Bid::Tricks { tricks, .. } = bid
            && tricks < min_bid
        {
            return Err(RuleError::BidBelowMinimum { min: min_bid });
        }
        if let Some(standing) = self.standing()
            && !self.duels.beats_standing(bid)
        {
            return Err(RuleError::BidNotHigher { standing });
        }
        if bid == Bid::Kieker && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    pub(crate) fn check_hold(&self, kieker_eligible: bool) -> Result<(), RuleError> {
        self.duels.check_hold(kieker_eligible)
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
        self.calls.push((self.duels.turn(), call));
        self.duels.apply(match call {
            Call::Bid { bid } => Say::Bid(bid),
            Call::Hold => Say::Hold,
            Call::Pass => Say::Pass,
        })
    }
}
