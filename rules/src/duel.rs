//! The duels of the Holstein auction (docs/rules/prisdorf.md §3), over any order of bids: the seats, the
//! holder and the challenger, the standing bid, and whose turn it is. Each game keeps its own
//! bids, calls and refusals around it (Prisdorf's [`crate::Auction`], Großenaspe's
//! [`crate::grossenaspe::Auction`]).

use serde::{Deserialize, Serialize};

use crate::error::RuleError;
use crate::seat::Seat;

/// A bid of some game's auction, as the duels need it.
pub(crate) trait DuelBid: Copy + PartialEq {
    /// The bid's height: a bid beats another only by a greater height.
    fn height(self) -> u8;
    /// Whether this is a Kieker (only a hand without court cards may bid or hold it).
    fn is_kieker(self) -> bool;
}

/// What a player says, as the duels need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Say<B> {
    Bid(B),
    Hold,
    Pass,
}

/// What an accepted call leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DuelStep<B> {
    /// The auction goes on with this seat to speak.
    Next(Seat),
    /// The auction is over: `declarer` won with the standing bid, by holding or by his own bid.
    Won { declarer: Seat, bid: B, held: bool },
    /// Everybody passed.
    AllPassed,
}

/// The state of the duels. Speaking order: forehand, then clockwise, the dealer last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Duels<B> {
    /// Forehand, who speaks first; the others follow clockwise.
    first: Seat,
    /// The number of players.
    players: u8,
    /// Index in the speaking order of the next player who has not spoken yet.
    next: u8,
    /// The survivor of the duels so far (the first player to open, then the winner of each duel).
    holder: Option<Seat>,
    /// The player challenging the holder.
    challenger: Option<Seat>,
    /// The highest bid so far.
    standing: Option<B>,
    /// Whether the holder's last call was a hold (rather than a bid of his own).
    held: bool,
    /// Who speaks now.
    turn: Seat,
}

impl<B: DuelBid> Duels<B> {
    pub(crate) fn new(first: Seat, players: u8) -> Duels<B> {
        Duels { first, players, next: 1, holder: None, challenger: None, standing: None, held: false, turn: first }
    }

    pub(crate) fn turn(&self) -> Seat {
        self.turn
    }

    pub(crate) fn standing(&self) -> Option<B> {
        self.standing
    }

    pub(crate) fn holder(&self) -> Option<Seat> {
        self.holder
    }

    pub(crate) fn challenger(&self) -> Option<Seat> {
        self.challenger
    }

    /// Whether `bid` is higher than the standing bid (any bid is, before the first).
    pub(crate) fn beats_standing(&self, bid: B) -> bool {
        self.standing.is_none_or(|standing| bid.height() > standing.height())
    }

    /// Checks a hold by the player to speak: only the holder answering a challenge, and a
    /// Kieker only with no court card.
    pub(crate) fn check_hold(&self, kieker_eligible: bool) -> Result<(), RuleError> {
        if self.holder != Some(self.turn) || self.challenger.is_none() {
            return Err(RuleError::HoldNotAllowed);
        }
        if self.standing.is_some_and(B::is_kieker) && !kieker_eligible {
            return Err(RuleError::KiekerNotAllowed);
        }
        Ok(())
    }

    /// Applies a call already checked.
    pub(crate) fn apply(&mut self, say: Say<B>) -> DuelStep<B> {
        let seat = self.turn;
        match say {
            Say::Bid(bid) => {
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
            Say::Hold => {
                // Accepted only from the holder answering a challenger (see `check_hold`).
                self.held = true;
                let challenger = self.challenger.unwrap_or(seat);
                self.speak(challenger)
            }
            Say::Pass => match (self.holder, self.challenger) {
                (None, _) => match self.take_next() {
                    Some(next) => self.speak(next),
                    None => DuelStep::AllPassed,
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

    fn speak(&mut self, seat: Seat) -> DuelStep<B> {
        self.turn = seat;
        DuelStep::Next(seat)
    }

    fn take_next(&mut self) -> Option<Seat> {
        if self.next >= self.players {
            return None;
        }
        let seat = Seat((self.first.0 + self.next) % self.players);
        self.next += 1;
        Some(seat)
    }

    fn next_challenger(&mut self) -> DuelStep<B> {
        self.challenger = self.take_next();
        match (self.challenger, self.holder, self.standing) {
            (Some(challenger), _, _) => self.speak(challenger),
            (None, Some(declarer), Some(bid)) => DuelStep::Won { declarer, bid, held: self.held },
            _ => DuelStep::AllPassed,
        }
    }
}
