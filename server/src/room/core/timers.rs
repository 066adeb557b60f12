//! Deadlines: when the room must next wake, and what happens when a deadline has passed (a
//! grace period ends, the move clock runs out, reading time is spent, the next deal is due), with
//! the host's part and the stand-ins' hand-back settled on every tick.

use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_rules::Seat;

use super::{Change, Core, Decision, Passing};
use crate::room::record::Record;

impl Core {
    /// What is due at `now`: first what is not stored (grace periods over, the move clock run
    /// out, reading time spent, returned players back in their seats); once nothing of that is
    /// left, what is (the host's part passed on, the next deal). The shell ticks until nothing
    /// is due, so each tick's records come before any passing change, as in every decision.
    pub(super) fn decide_tick(&self, now: Instant) -> Decision {
        let mut changes = self.hand_backs();
        let takeover = self.options.bot_takeover.filter(|_| self.series.as_ref().is_some_and(|s| !s.series_over()));
        for seat in 0..self.holds.len() {
            if self.holds[seat].grace_until.is_some_and(|t| t <= now) {
                let stand_in = if self.holds[seat].stand_in.is_some() { None } else { takeover };
                changes.push(Change::Passing(Passing::GraceOver { seat: Seat(seat as u8), stand_in }));
            }
        }
        let awake = !self.dormant();
        if awake
            && let Some((seat, at)) = self.clock_deadline()
            && at <= now
        {
            let level = self.options.bot_takeover.unwrap_or(Level::Normal);
            changes.push(Change::Passing(Passing::ClockRanOut { seat, level }));
        }
        if awake {
            changes.extend(
                self.spent_reading(now)
                    .into_iter()
                    .map(|seat| Change::Passing(Passing::Reading { seat, reading: false })),
            );
        }
        if changes.is_empty() {
            // Nobody is here: the game waits.
            if awake && self.next_deal_due(now) {
                changes.push(Change::Record(Record::NextDeal));
            }
            changes.extend(self.host_passing());
        }
        if self.audience_due.is_some_and(|t| t <= now) {
            changes.push(Change::Passing(Passing::AudienceTold));
        }
        Decision { changes, effects: Vec::new() }
    }

    /// The next deal is due at `now`: the countdown has run out or every player asked, and
    /// every seat is taken.
    fn next_deal_due(&self, now: Instant) -> bool {
        self.between_deals()
            && !self.seats.iter().any(Option::is_none)
            && (self.every_player_asked() || self.next_deal_at.is_some_and(|t| t <= now))
    }

    /// A tournament table plays its deals whether or not anybody is in the room (its absent
    /// players' bots stand in), since the round cannot end without it — once no seat is held
    /// for a player who may still come back (after a restart, say, every player has his grace
    /// time to return before bots play on).
    fn plays_unattended(&self) -> bool {
        self.tournament.is_some() && !self.table_done() && self.holds.iter().all(|h| h.grace_until.is_none())
    }

    /// Nobody is in the room, and nothing goes on in it.
    pub fn dormant(&self) -> bool {
        self.viewers.is_empty() && !self.plays_unattended()
    }

    /// Nobody has been in the room for the idle time at `now`: it may leave memory.
    pub fn idle_expired(&self, now: Instant) -> bool {
        self.dormant() && self.empty_since.is_some_and(|since| now.saturating_duration_since(since) >= self.idle)
    }

    /// When the room must next wake for a deadline of its own (not counting a bot's move).
    pub fn next_deadline(&self) -> Option<Instant> {
        let grace = self.holds.iter().filter_map(|h| h.grace_until).min();
        let idle = self.empty_since.map(|since| since + self.idle);
        if self.dormant() {
            // Nobody is here: the game waits (bots play only while a person is in the room).
            return [grace, idle, self.audience_due].into_iter().flatten().min();
        }
        let clock = self.clock_deadline().map(|(_, at)| at);
        let reading = self.reading.values().min().copied();
        [grace, idle, self.next_deal_at, clock, reading, self.audience_due].into_iter().flatten().min()
    }

    /// The seat whose move clock runs now, and when it runs out: a person's turn in a room
    /// with a clock, unless a bot already makes that move.
    pub(super) fn clock_deadline(&self) -> Option<(Seat, Instant)> {
        let seconds = self.options.move_seconds?;
        let series = self.series.as_ref().filter(|s| !s.series_over() && !s.deal_over())?;
        let seat = series.turn()?;
        if self.controller(seat).is_some() {
            return None;
        }
        Some((seat, self.turn_since + Duration::from_secs(u64::from(seconds))))
    }
}
