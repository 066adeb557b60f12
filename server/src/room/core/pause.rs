//! The time between deals: asking for the next deal, reading the result or a review, reminding
//! those who keep the table waiting, and the countdown to the next deal.

use std::time::{Duration, Instant};

use fipsen_protocol::{ErrorCode, MAX_READING_SECONDS, NUDGE_AFTER_SECONDS, NUDGE_EVERY_SECONDS};
use fipsen_rules::{RuleError, Seat};

use super::{Core, Decision, Passing};

/// The least time left on the countdown to the next deal when the last reader is done (given
/// once a pause: later readers resume it with what it has left).
pub const RESUME_AFTER_READING: Duration = Duration::from_secs(3);

impl Core {
    pub(super) fn decide_next_deal(&self, seat: Option<Seat>) -> Result<Decision, ErrorCode> {
        let Some(seat) = seat else { return Err(ErrorCode::NotSeated) };
        let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
        if series.series_over() || self.table_done() {
            return Err(ErrorCode::Rule(RuleError::SeriesOver));
        }
        if !series.deal_over() {
            return Err(ErrorCode::Rule(RuleError::DealNotOver));
        }
        // Once every player asked, the next tick deals.
        Ok(if self.next_deal_asked.contains(&seat) {
            Decision::default()
        } else {
            Decision::passing(Passing::NextDealAsked { seat })
        })
    }

    /// A seated player starts or stops reading between deals; the countdown to the next deal
    /// stands still while anyone reads. Each seat has [`MAX_READING_SECONDS`] of reading for
    /// the whole pause: once they are spent, starting again changes nothing.
    pub(super) fn decide_reading(&self, seat: Option<Seat>, reading: bool) -> Result<Decision, ErrorCode> {
        let seat = seat.ok_or(ErrorCode::NotSeated)?;
        if reading {
            let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
            if series.series_over() || self.table_done() {
                return Err(ErrorCode::Rule(RuleError::SeriesOver));
            }
            if !series.deal_over() {
                return Err(ErrorCode::Rule(RuleError::DealNotOver));
            }
        }
        // Done reading is harmless when the next deal has come meanwhile.
        Ok(Decision::passing(Passing::Reading { seat, reading }))
    }

    /// A seated player reminds the person whose turn it is, once that turn has lasted a while;
    /// between deals, the connected players who have not asked for the next deal yet.
    pub(super) fn decide_nudge(&self, by: Option<Seat>, now: Instant) -> Result<Decision, ErrorCode> {
        let by = by.ok_or(ErrorCode::NotSeated)?;
        let series = self.series.as_ref().filter(|s| !s.series_over()).ok_or(ErrorCode::NudgeNobody)?;
        let person = |seat: Seat| seat != by && self.controller(seat).is_none();
        let seats: Vec<Seat> = if series.deal_over() {
            (0..self.seats.len())
                .map(|s| Seat(s as u8))
                .filter(|&s| person(s) && !self.next_deal_asked.contains(&s))
                .filter(|s| self.seats[s.index()].is_some_and(|p| self.is_connected(p)))
                .collect()
        } else {
            series.turn().filter(|&seat| person(seat)).into_iter().collect()
        };
        if seats.is_empty() {
            return Err(ErrorCode::NudgeNobody);
        }
        let too_early = now.duration_since(self.turn_since) < Duration::from_secs(u64::from(NUDGE_AFTER_SECONDS));
        let too_often = self
            .last_nudge
            .is_some_and(|last| now.duration_since(last) < Duration::from_secs(u64::from(NUDGE_EVERY_SECONDS)));
        if too_early || too_often {
            return Err(ErrorCode::NudgeTooSoon);
        }
        Ok(Decision::passing(Passing::Nudged { by, seats }))
    }

    /// What is left of `seat`'s reading time in this pause.
    pub(super) fn reading_left_of(&self, seat: Seat) -> Duration {
        self.reading_left.get(&seat).copied().unwrap_or(Duration::from_secs(u64::from(MAX_READING_SECONDS)))
    }

    /// `seat` stops reading (if it read), keeping what is left of its reading time for this
    /// pause; true if it was reading.
    pub(super) fn stop_reading(&mut self, seat: Seat, now: Instant) -> bool {
        let Some(until) = self.reading.remove(&seat) else { return false };
        self.reading_left.insert(seat, until.saturating_duration_since(now));
        true
    }

    /// The seats whose reading time for this pause is spent at `now`.
    pub(super) fn spent_reading(&self, now: Instant) -> Vec<Seat> {
        self.reading.iter().filter(|(_, until)| **until <= now).map(|(s, _)| *s).collect()
    }

    /// Keeps the countdown to the next deal in step with the state at `now`. It runs from the
    /// end of the deal; it stands still while anyone reads, and goes on with at least
    /// [`RESUME_AFTER_READING`] left the first time in a pause, with what it has left after
    /// that. As each seat's reading time is bounded over the pause, so is the pause: at most its
    /// length, the longest reading of each seat, and the resume time once. Without a pause of
    /// its own the room waits for every player, but no longer than the move clock when there is
    /// one.
    pub(super) fn reschedule(&mut self, now: Instant) {
        if !self.between_deals() {
            self.next_deal_at = None;
            self.next_deal_left = None;
            self.next_deal_asked.clear();
            self.reading.clear();
            self.reading_left.clear();
            self.resumed_with_floor = false;
            return;
        }
        if self.seats.iter().any(Option::is_none) {
            // A seat emptied between deals (a bot taken off): the next deal waits for it.
            self.next_deal_at = None;
            return;
        }
        if self.every_player_asked() {
            self.next_deal_at = Some(self.next_deal_at.map_or(now, |at| at.min(now)));
            self.next_deal_left = None;
            return;
        }
        let pause =
            self.options.next_deal_seconds.or(self.options.move_seconds).map(|s| Duration::from_secs(u64::from(s)));
        if !self.reading.is_empty() {
            if let Some(at) = self.next_deal_at.take() {
                self.next_deal_left = Some(at.saturating_duration_since(now));
            } else if self.next_deal_left.is_none() {
                self.next_deal_left = pause;
            }
            return;
        }
        if let Some(left) = self.next_deal_left.take() {
            let left = if self.resumed_with_floor || left >= RESUME_AFTER_READING {
                left
            } else {
                self.resumed_with_floor = true;
                RESUME_AFTER_READING
            };
            self.next_deal_at = Some(now + left);
        } else if self.next_deal_at.is_none() {
            self.next_deal_at = pause.map(|pause| now + pause);
        }
    }

    /// Every connected seated person asked for the next deal (and at least one did; bots and
    /// absent players never hold it up).
    pub(super) fn every_player_asked(&self) -> bool {
        let mut connected = (0..self.seats.len())
            .map(|s| Seat(s as u8))
            .filter(|s| self.seats[s.index()].is_some_and(|p| self.is_connected(p)))
            .peekable();
        !self.next_deal_asked.is_empty()
            && connected.peek().is_some()
            && connected.all(|s| self.next_deal_asked.contains(&s))
    }
}
