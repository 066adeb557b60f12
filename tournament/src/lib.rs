//! A club tournament of any Fipsen game, as a pure, event-sourced state machine: the server
//! stores its events (or its JSON) and runs each table as a room.
//!
//! * [`Settings`] is what the organiser chooses: the game, the rules and deals of each table
//!   size, the rounds, the reseating, duplicate deals; [`Settings::prisdorf`] is the Prisdorf
//!   tournament of docs/rules/prisdorf.md §10.
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
//!
//! ```
//! use fipsen_rules::Seed;
//! use fipsen_tournament::{DealResult, Phase, Settings, Tournament, TournamentId};
//!
//! let settings = Settings::prisdorf("Club evening"); // the organiser plays
//! let (mut t, mut log) = Tournament::create(TournamentId("club-1".into()), settings, "Olli")?;
//! for name in ["Anna", "Jan", "Gesa"] {
//!     log.extend(t.register(name)?.1);
//! }
//! log.extend(t.start(Seed::from_u64(1), false)?); // one table of four, seated at random
//! let table = t.round(1).map(|r| r.tables[0].id).expect("round 1");
//! log.extend(t.record(&[DealResult { table, deal: 1, points: vec![0, 3, 0, 0], redeal: 0 }])?);
//! assert_eq!(t.phase(), Phase::Playing { round: 1 }); // 99 deals to go
//! assert_eq!(t.standings()[0].total, 3);
//! assert_eq!(Tournament::from_events(&log)?, t);
//! # Ok::<(), fipsen_tournament::TournamentError>(())
//! ```
//!
//! # Running the tables
//!
//! For each [`Table`] of a round started, the server opens a room with the rules
//! `settings().format(table.seats.len()).rules` and the master seed
//! [`Tournament::table_seed`]`(table.id)`, and seats `table.seats[i]` at the room's seat `i`.
//! Each time a deal of the room's scoresheet ends without being thrown in, it records that
//! deal: the `d`-th such row is deal `d`, and its points are the difference of the row's
//! running totals to the previous counted row's ([`DealResult::from_running_totals`] turns a
//! scoresheet into deals; sending deals already recorded again is harmless). Its
//! [`DealResult::redeal`] says how often the table threw that deal in before playing it.
//!
//! # Duplicate deals and thrown-in deals
//!
//! A thrown-in deal is dealt again by the same dealer and does not count. Were the tables to
//! deal their `k`-th deal (thrown-in deals included) from the master seed's stream `k − 1`, as
//! the platform's rooms do, one thrown-in deal would put a table one stream behind the others
//! for the rest of the round. So the room of a tournament table deals with
//! [`fipsen_rules::DealSeeds::ByCountedDeal`]: the first dealing of its `d`-th counted deal
//! from stream `d − 1`, and each re-deal after a thrown-in deal from a stream of its own that
//! depends on `d` and the number of the re-deal alone. Every table of a size then holds the
//! same cards, dealt by the same dealer, for the same counted deal and dealing, whatever the
//! other tables throw in. A table that threw a deal in plays another dealing of it than a table
//! that did not: the duplicate score compares only tables that played the same dealing
//! ([`DealResult::redeal`]).

mod error;
mod settings;
mod standings;
mod tournament;

pub use error::TournamentError;
pub use settings::{MAX_ENTRANTS, MAX_ROUNDS, MAX_TOURNAMENT_NAME_CHARS, Plan, Reseating, Settings, TableFormat};
pub use standings::{
    Hundredths, PlayerRound, ResultRow, Results, RoundResult, RoundView, SeatResult, Standing, TIE_BREAK, TableResult,
    TableView, TournamentView,
};
pub use tournament::{
    Commitment, DealResult, Entrant, EntrantId, MAX_NAME_CHARS, Phase, Round, Seating, Table, TableId, Tournament,
    TournamentEvent, TournamentId, clean_name,
};
