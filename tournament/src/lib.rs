//! A club tournament of any Fipsen game, as a pure, event-sourced state machine: the server
//! stores its events (or its JSON) and runs each table as a room.
//!
//! * [`Settings`] is what the organiser chooses: the game, the rules and deals of each table
//!   size, the rounds, the reseating, duplicate deals; [`Settings::prisdorf`] is the Prisdorf
//!   tournament of `RULES.md` §10.
//! * [`Tournament`] is the state. [`Tournament::create`], [`Tournament::register`],
//!   [`Tournament::remove`], [`Tournament::close_registration`], [`Tournament::start`],
//!   [`Tournament::record`] and [`Tournament::next_round`] each check first and then return
//!   the [`TournamentEvent`]s they produced, or a [`TournamentError`] with a stable code and
//!   the state unchanged. [`Tournament::from_events`] replays the events into an equal state.
//! * Seating: `n` players sit at tables of the game's size `k` and at most
//!   [`Settings::max_short_tables`] tables of `k − 1`, the fewest of these ([`Settings::plan`]:
//!   for Prisdorf n = 4a + 3b with the smallest b ≤ 3; 1, 2 and 5 players cannot be seated,
//!   and [`Tournament::start`] with `fill_with_bots` adds the fewest bots that make them
//!   seatable). Round 1 is seated at random from a seed; later rounds by the standings or at
//!   random ([`Reseating`]).
//! * Rounds: each table plays a fixed number of deals, recorded deal by deal
//!   ([`DealResult`]) so that the standings are live; the round ends when every table has
//!   played all its deals.
//! * Duplicate deals: every table of one size in a round gets the same master seed
//!   ([`Tournament::table_seed`]), derived from the round's secret, whose SHA-256
//!   ([`Tournament::commitment`]) is public from the round's start and which is revealed when
//!   the round ends ([`Tournament::revealed_secret`]).
//! * [`Tournament::standings`], [`Tournament::results`] and [`Tournament::standings_csv`] rank
//!   the players as [`TIE_BREAK`] says; [`Tournament::view`] is what everyone may see.
//!
//! Nothing here does I/O, reads a clock or draws randomness: the seeds come from the caller.

mod error;
mod settings;
mod standings;
mod tournament;

pub use error::TournamentError;
pub use settings::{MAX_TOURNAMENT_NAME_CHARS, Plan, Reseating, Settings, TableFormat};
pub use standings::{
    Hundredths, PlayerRound, ResultRow, Results, RoundResult, RoundView, SeatResult, Standing, TIE_BREAK, TableResult,
    TableView, TournamentView,
};
pub use tournament::{
    Commitment, DealResult, Entrant, EntrantId, MAX_NAME_CHARS, Phase, Round, Seating, Table, TableId, Tournament,
    TournamentEvent, TournamentId, clean_name,
};
