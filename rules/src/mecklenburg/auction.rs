//! The Mecklenburg auctions: a single round (§B2, §B3: forehand first, each player speaks once,
//! a higher bid or pass) or, in Anseggerfips as an option, the duels of Prisdorf (the shared
//! duel core) over the order of §B2.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::rules::{AuctionKind, Bid, Call, Variant};
use crate::duel::{DuelBid, DuelStep, Duels, Say};
use crate::error::RuleError;
use crate::seat::Seat;

impl DuelBid for Bid {
    fn height(self) -> u8 {
        Bid::height(self)
    }

    fn is_kieker(self) -> bool {
        false
    }
}

/// A single round: each player in turn, once, names a bid higher than the highest so far or
/// passes; the highest bidder is declarer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Round {
    /// The number of players.
    players: u8,
    /// How many have spoken.
    spoken: u8,
    /// The highest bid so far.
    standing: Option<Bid>,
    /// Who made it.
    bidder: Option<Seat>,
    /// Who speaks now.
    turn: Seat,
}

impl Round {
    fn apply(&mut self, say: Say<Bid>) -> DuelStep<Bid> {
        if let Say::Bid(bid) = say {
            self.standing = Some(bid);
            self.bidder = Some(self.turn);
        }
        self.spoken += 1;
        if self.spoken < self.players {
            self.turn = self.turn.next(self.players);
            return DuelStep::Next(self.turn);
        }
        match (self.bidder, self.standing) {
            (Some(declarer), Some(bid)) => DuelStep::Won { declarer, bid, held: false },
            _ => DuelStep::AllPassed,
        }
    }
}

/// How the auction is held, with its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Order {
    SingleRound(Round),
    Duels(Duels<Bid>),
}

/// What the player to speak may bid: the game, its lowest number, whether he may bid Ruten,
/// whether he must open.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Speaker {
    pub(crate) variant: Variant,
    pub(crate) min_bid: u8,
    pub(crate) may_bid_ruten: bool,
    pub(crate) must_open: bool,
}

/// The auction's state. Speaking order: forehand, then clockwise, the dealer last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    order: Order,
    /// Every call so far, in order.
    calls: ArrayVec<(Seat, Call), { Auction::MAX_CALLS }>,
}

/// What an accepted call leads to.
pub(crate) type AuctionStep = DuelStep<Bid>;

impl Auction {
    /// The most calls an auction can have: in the duels 10 bids, each followed by at most one
    /// hold, and one pass per player.
    pub const MAX_CALLS: usize = 10 * 2 + 4;

    pub(crate) fn new(kind: AuctionKind, first: Seat, players: u8) -> Auction {
        let order = match kind {
            AuctionKind::SingleRound => {
                Order::SingleRound(Round { players, spoken: 0, standing: None, bidder: None, turn: first })
            }
            AuctionKind::Duels => Order::Duels(Duels::new(first, players)),
        };
        Auction { order, calls: ArrayVec::new() }
    }

    /// Who speaks now.
    pub fn turn(&self) -> Seat {
        match &self.order {
            Order::SingleRound(round) => round.turn,
            Order::Duels(duels) => duels.turn(),
        }
    }

    /// The highest bid so far.
    pub fn standing(&self) -> Option<Bid> {
        match &self.order {
            Order::SingleRound(round) => round.standing,
            Order::Duels(duels) => duels.standing(),
        }
    }

    /// Who made the highest bid so far (in the duels: the survivor of the duels so far).
    pub fn holder(&self) -> Option<Seat> {
        match &self.order {
            Order::SingleRound(round) => round.bidder,
            Order::Duels(duels) => duels.holder(),
        }
    }

    /// In the duels, the player now challenging the holder.
    pub fn challenger(&self) -> Option<Seat> {
        match &self.order {
            Order::SingleRound(_) => None,
            Order::Duels(duels) => duels.challenger(),
        }
    }

    /// Every call so far.
    pub fn calls(&self) -> &[(Seat, Call)] {
        &self.calls
    }

    pub(crate) fn check_bid(&self, bid: Bid, speaker: Speaker) -> Result<(), RuleError> {
        if !bid.is_valid_in(speaker.variant) {
            return Err(RuleError::UnknownBid);
        }
        if let Bid::Tricks { tricks, .. } = bid
            && tricks < speaker.min_bid
        {
            return Err(RuleError::BidBelowMinimum { min: speaker.min_bid });
        }
        if let Some(standing) = self.standing()
            && bid.height() <= standing.height()
        {
            return Err(RuleError::MustBidHigher { standing });
        }
        if bid.is_ruten() && !speaker.may_bid_ruten {
            return Err(RuleError::RutenasRequired);
        }
        Ok(())
    }

    /// A hold owes the identical contract: holding a Ruten bid needs the Rutenas too.
    pub(crate) fn check_hold(&self, speaker: Speaker) -> Result<(), RuleError> {
        match &self.order {
            Order::SingleRound(_) => Err(RuleError::HoldNotAllowed),
            Order::Duels(duels) => {
                duels.check_hold(true)?;
                if self.standing().is_some_and(Bid::is_ruten) && !speaker.may_bid_ruten {
                    return Err(RuleError::RutenasRequired);
                }
                Ok(())
            }
        }
    }

    pub(crate) fn check_pass(&self, speaker: Speaker) -> Result<(), RuleError> {
        if speaker.must_open && self.calls.is_empty() { Err(RuleError::ForehandMustBid) } else { Ok(()) }
    }

    pub(crate) fn legal_calls(&self, speaker: Speaker, out: &mut impl FnMut(Call)) {
        if self.check_hold(speaker).is_ok() {
            out(Call::Hold);
        }
        for &bid in Bid::all(speaker.variant) {
            if self.check_bid(bid, speaker).is_ok() {
                out(Call::Bid { bid });
            }
        }
        if self.check_pass(speaker).is_ok() {
            out(Call::Pass);
        }
    }

    pub(crate) fn apply(&mut self, call: Call) -> AuctionStep {
        self.calls.push((self.turn(), call));
        let say = match call {
            Call::Bid { bid } => Say::Bid(bid),
            Call::Hold => Say::Hold,
            Call::Pass => Say::Pass,
        };
        match &mut self.order {
            Order::SingleRound(round) => round.apply(say),
            Order::Duels(duels) => duels.apply(say),
        }
    }
}
