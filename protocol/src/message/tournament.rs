//! The tournament family: creating, watching, running tournaments, and their results.

use fipsen_tournament::{EntrantId, Settings};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tournament::TournamentTables;

/// A message of the tournament family. Its JSON form is that of [`super::ClientMessage`]: one
/// object with a `type` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentMessage {
    /// Creates a tournament; its creator is the organiser (and its first entrant if the settings
    /// say the organiser plays). Answered with `tournament_created` (the organiser's token: keep
    /// it, it is the only key to running the tournament) and then `tournament`: the creator
    /// watches it from then on. `tables` are the options of every table's room (their title and
    /// `public` are set by the server).
    ///
    /// ```json
    /// {"type": "create_tournament", "name": "Olli",
    ///  "settings": {"name": "Club night, Friday", "game": "…",
    ///               "tables": [{"seats": 4, "deals": 100, "rules": {"players": 4, "deals": 100}},
    ///                          {"seats": 3, "deals": 120, "rules": {"players": 3, "deals": 120}}],
    ///               "max_short_tables": 3, "rounds": 1, "reseating": "by_standings", "duplicate": false,
    ///               "listed": true, "organiser_plays": true},
    ///  "tables": {"grace_seconds": 120, "next_deal_seconds": 10}}
    /// ```
    CreateTournament {
        /// The organiser's name (1 to 32 characters).
        name: String,
        /// The tournament: its game, the tables of each size with their rules and deals, the
        /// rounds, the reseating, duplicate deals, whether it is listed, whether the organiser
        /// plays.
        settings: Settings,
        /// The options of the tables' rooms; missing fields take their defaults. Unless it says
        /// `spectators_allowed`, the tables of a tournament with duplicate deals refuse
        /// spectators (a spectator of a table that is ahead would see deals the other tables have
        /// still to play).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tables: Option<TournamentTables>,
    },
    /// Asks what the tournament of a link code is, without watching it. Answered with
    /// `tournament`.
    ///
    /// ```json
    /// {"type": "peek_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1"}
    /// ```
    PeekTournament {
        /// The link code.
        tournament: String,
    },
    /// Watches a tournament: `tournament` now and again whenever it changes (an entrant, the
    /// start, every deal a table plays, a round's end). With the token of its organiser or of an
    /// entrant, `you` says who you are. A connection watches one tournament at a time (besides
    /// being in one room); watching another ends the first.
    ///
    /// ```json
    /// {"type": "watch_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"}
    /// ```
    WatchTournament {
        /// The link code.
        tournament: String,
        /// Your organiser or entrant token, if you have one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Stops watching the tournament. Answered with `unwatched`.
    ///
    /// ```json
    /// {"type": "unwatch_tournament"}
    /// ```
    UnwatchTournament,
    /// Registers for a tournament by name (no account) while registration is open. Answered with
    /// `registered` (your entrant token: it seats you at your tables and shows you as yourself)
    /// and then `tournament`: you watch it from then on.
    ///
    /// ```json
    /// {"type": "register", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "name": "Hinnerk"}
    /// ```
    Register {
        /// The link code.
        tournament: String,
        /// Your name (1 to 32 characters, unique in the tournament).
        name: String,
    },
    /// The organiser removes an entrant before the start.
    ///
    /// ```json
    /// {"type": "remove_entrant", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…", "entrant": 4}
    /// ```
    RemoveEntrant {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
        /// The entrant.
        entrant: EntrantId,
    },
    /// The organiser closes registration.
    ///
    /// ```json
    /// {"type": "close_registration", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…"}
    /// ```
    CloseRegistration {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
    },
    /// The organiser starts the tournament: registration closes, round 1 is seated at random and
    /// every table's room opens with its players seated and its first deal dealt. Entrants that
    /// cannot be seated (5 at tables of four and three) are refused with
    /// `tournament/cannot_seat` unless `fill_with_bots` adds the fewest bots that seat them
    /// (marked as bots everywhere).
    ///
    /// ```json
    /// {"type": "start_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…", "fill_with_bots": false}
    /// ```
    StartTournament {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
        /// Add bots if the entrants cannot be seated as they are.
        #[serde(default)]
        fill_with_bots: bool,
    },
    /// The organiser starts the next round once every table has played all its deals: the
    /// players are reseated as the settings say (by the standings or at random).
    ///
    /// ```json
    /// {"type": "next_round", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…"}
    /// ```
    NextRound {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
    },
    /// Asks for a tournament's results, in parts so that no answer grows with both the players
    /// and the rounds. Without `round`: every player ranked with his rounds, and the standings as
    /// CSV. With `round`: that round's tables, and their seats as CSV. Answered with
    /// `tournament_results`.
    ///
    /// ```json
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1"}
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "round": 2}
    /// ```
    TournamentResults {
        /// The link code.
        tournament: String,
        /// The round whose tables are asked for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
    },
    /// Asks for the listed tournaments not yet over, newest first, 50 at a time from `offset`.
    ///
    /// ```json
    /// {"type": "tournaments", "offset": 0}
    /// ```
    Tournaments {
        /// How many of the newest to skip.
        #[serde(default)]
        offset: u32,
    },
}

impl TournamentMessage {
    /// Every `type` of this family.
    pub const TYPES: [&'static str; 11] = [
        "create_tournament",
        "peek_tournament",
        "watch_tournament",
        "unwatch_tournament",
        "register",
        "remove_entrant",
        "close_registration",
        "start_tournament",
        "next_round",
        "tournament_results",
        "tournaments",
    ];
}
