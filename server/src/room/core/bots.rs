//! Bots as planned decisions: which seat a bot plays next and after what pause, and what its
//! decision changes once it is made (the shell has it computed off the room's task).

use std::time::Duration;

use fipsen_bots::Level;
use fipsen_rules::{GameAction, GameView, Seat};
use tracing::warn;

use super::{Core, Decision, Passing};
use crate::room::record::Record;

/// A bot's next move, as the core plans it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotCall {
    /// The seat it plays.
    pub seat: Seat,
    /// The game state it plays at: a later game event makes the call stale.
    pub game_seq: u64,
    /// How long it waits before acting (zero for a move the clock gave it).
    pub pause: Duration,
}

impl Core {
    /// The bot to act now, if any: the seat whose turn it is first, then any bot that may act
    /// out of turn (a Siebener Fips on offer, say). None while nobody is in the room (a table
    /// of bots that nobody watches would only burn the server's time; a tournament table is the
    /// exception: the round waits for it).
    pub fn bot_call(&self) -> Option<BotCall> {
        if self.dormant() {
            return None;
        }
        let series = self.series.as_ref().filter(|s| !s.series_over() && !s.deal_over())?;
        let seats = (0..self.seats.len()).map(|s| Seat(s as u8));
        for seat in series.turn().into_iter().chain(seats) {
            if self.controller(seat).is_none() || self.passed_out_of_turn == Some((seat, self.last_game_seq)) {
                continue;
            }
            // Out of turn, a bot is asked only where its game says it may act (so that nobody
            // waits for a bot that will do nothing).
            let asked = if series.turn() == Some(seat) { series.can_act(seat) } else { series.bot_out_of_turn(seat) };
            if !asked {
                continue;
            }
            // A move the clock gave to a bot has been waited for long enough.
            let clocked = self.clock_move.is_some_and(|(s, game_seq, _)| s == seat && game_seq == self.last_game_seq);
            let pause = if clocked {
                Duration::ZERO
            } else {
                bot_pause(self.options.bot_delay_ms, self.bot_seed(self.seq), series.leading())
            };
            return Some(BotCall { seat, game_seq: self.last_game_seq, pause });
        }
        None
    }

    /// Whether a call is still the one to make: the game has not moved on and a bot still
    /// plays that seat.
    pub fn bot_call_stands(&self, seat: Seat, game_seq: u64) -> bool {
        game_seq == self.last_game_seq && self.controller(seat).is_some()
    }

    /// What a bot needs to decide for `seat`: its level, a seed, and the seat's own view.
    pub fn bot_job(&self, seat: Seat) -> Option<(Level, u64, GameView)> {
        let (series, level) = (self.series.as_ref()?, self.controller(seat)?);
        Some((level, self.bot_seed(self.seq << 8 | u64::from(seat.0)), series.view(Some(seat))))
    }

    /// A bot's decision: checked like a person's action. One that is stale changes nothing.
    pub(super) fn decide_bot(&self, seat: Seat, game_seq: u64, action: Option<GameAction>) -> Decision {
        if !self.bot_call_stands(seat, game_seq) {
            return Decision::default();
        }
        let Some(series) = &self.series else { return Decision::default() };
        let action = match action {
            Some(action) if series.check(seat, &action).is_ok() => action,
            // Out of turn (a Siebener Fips or a Kieker give-up on offer) doing nothing is a
            // choice: ask again only once the game has moved on.
            None if series.turn() != Some(seat) => return Decision::passing(Passing::PassedOutOfTurn { seat }),
            other => {
                // Never expected; the table must not stall, so the bot makes the first legal move.
                warn!(room = %self.code, seat = seat.0, decision = ?other, "a bot chose no legal action");
                match series.legal_actions(seat).first() {
                    Some(action) => action,
                    None => return Decision::default(),
                }
            }
        };
        Decision::record(Record::BotAct { seat, action })
    }

    /// A person sits at the table and is connected.
    pub fn person_at_table(&self) -> bool {
        self.seats.iter().flatten().any(|&p| self.bot_level(p).is_none() && self.is_connected(p))
    }

    /// A seed for a bot's choice, from the room's secret master seed and `salt`.
    pub(super) fn bot_seed(&self, salt: u64) -> u64 {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.master.0[..8]);
        splitmix(u64::from_le_bytes(bytes) ^ splitmix(salt))
    }
}

/// How long a bot waits before acting: about `base_ms`, varied like a person's pause by
/// `seed` (0.6 to 1.4 times), 1.3 times longer when leading to a new trick. Every input is
/// public or secret to everyone alike, never the bot's cards nor how many of them it may play,
/// so the pause tells the table nothing about its hand.
pub(super) fn bot_pause(base_ms: u32, seed: u64, leading: bool) -> Duration {
    if base_ms == 0 {
        return Duration::ZERO;
    }
    let spread = (seed % 1000) as f64 / 1000.0;
    let mut ms = f64::from(base_ms) * (0.6 + 0.8 * spread);
    if leading {
        ms *= 1.3;
    }
    Duration::from_secs_f64(ms / 1000.0)
}

/// A 64-bit mixing function (SplitMix64's finaliser).
pub(super) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
