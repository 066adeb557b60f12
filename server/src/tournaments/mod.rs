//! Tournaments: one task per tournament, owning its state (the pure [`Tournament`](fipsen_tournament::Tournament) of the
//! `fipsen-tournament` crate), its tokens, the invite codes of its tables and its watchers.
//!
//! * Every change is a list of [`TournamentEvent`](fipsen_tournament::TournamentEvent)s (and the server's own records: the tokens,
//!   the tables' codes): checked on a copy, **stored**, and only then applied, answered and
//!   broadcast. Replaying the stored records with [`Tournament::from_events`](fipsen_tournament::Tournament::from_events) rebuilds the task
//!   after a restart.
//! * Each table of a round is an ordinary room ([`crate::room`]) created with the table's rules,
//!   the master seed [`Tournament::table_seed`](fipsen_tournament::Tournament::table_seed) and a [`TableLink`]; its entrants sit where the
//!   round seats them and come in with their entrant token (the room holds its hash), bots
//!   entrants sit as bots. The room tells the tournament every deal that counted
//!   ([`TableReport`]); the tournament records each once and broadcasts the live standings.
//! * The tables of the round being played are opened when the task starts, so that a table
//!   whose last deals were stored by its room but not yet by the tournament (the server was
//!   killed in between) reports them again.
//!
//! The parts: [`command`] (what a task is told, its handle), [`host`] (what a tournament asks
//! of the server), [`stored`] (its records and what they rebuild, no I/O), [`task`] (one
//! tournament's task) and [`directory`] (every tournament in memory).

pub mod command;
pub mod directory;
pub mod host;
pub mod stored;
pub mod task;

pub use crate::room::{TableLink, TableReport};
pub use command::{Command, OrganiserAction, Refusal, TournamentHandle};
pub use directory::{NewTournament, Tournaments};
pub use host::TournamentHost;
pub use task::Limits;
