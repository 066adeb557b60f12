//! Why an operation on a tournament was refused.

use crate::{EntrantId, TableId};

/// Why an operation on a tournament was refused. The tournament is then exactly as before.
///
/// Each error has a stable code ([`TournamentError::code`], `tournament/…`) for clients and
/// logs, and a message in English for people (its `Display`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The settings cannot be used; the text says which one and why.
    #[error("invalid tournament settings: {0}")]
    InvalidSettings(String),
    /// A name that is empty once trimmed.
    #[error("a name needs at least one character")]
    NameEmpty,
    /// A name longer than [`crate::MAX_NAME_CHARS`] characters once trimmed.
    #[error("a name may have at most {max} characters, not {chars}")]
    NameTooLong {
        /// The characters in the trimmed name.
        chars: usize,
        /// The most allowed.
        max: usize,
    },
    /// A name with a control character (a line break, a tab, …).
    #[error("a name may not contain control characters such as line breaks or tabs")]
    NameInvalid,
    /// Another entrant has this name (compared without case, with runs of spaces as one).
    #[error("the name {name:?} is taken")]
    NameTaken {
        /// The entrant's name as registered.
        name: String,
    },
    /// Registration is closed (or the tournament has started).
    #[error("registration is closed")]
    Closed,
    /// As many players have registered as the tournament takes ([`crate::Settings::entrant_cap`]).
    #[error("the tournament is full: it takes {max} players")]
    Full {
        /// The most entrants it takes.
        max: u32,
    },
    /// No entrant has this id.
    #[error("there is no entrant {0}")]
    UnknownEntrant(EntrantId),
    /// The tournament has already started.
    #[error("the tournament has already started")]
    AlreadyStarted,
    /// The tournament has not started yet.
    #[error("the tournament has not started yet")]
    NotStarted,
    /// Fewer entrants than the smallest table seats (and, with bots, no human entrant at all).
    #[error("{players} players cannot play: a table needs {needed}; start with fill_with_bots to add bots")]
    TooFewPlayers {
        /// The entrants registered.
        players: usize,
        /// The fewest players a table seats.
        needed: usize,
    },
    /// The entrants cannot be split into the allowed tables.
    #[error("{players} players cannot be seated at {tables}; start with fill_with_bots to add {bots} bot(s)")]
    CannotSeat {
        /// The entrants registered.
        players: usize,
        /// The tables allowed, in words ("tables of 4 and at most 3 tables of 3").
        tables: String,
        /// The fewest bots that make the number seatable.
        bots: usize,
    },
    /// No table has this id.
    #[error("there is no table {0}")]
    UnknownTable(TableId),
    /// A deal recorded out of order: the table's next deal is another.
    #[error("table {table} expects deal {expected}, not deal {got}")]
    DealOutOfOrder {
        /// The table.
        table: TableId,
        /// The deal the table records next.
        expected: u32,
        /// The deal given.
        got: u32,
    },
    /// A deal recorded again with other points than before.
    #[error("deal {deal} of table {table} is already recorded with other points")]
    DealConflict {
        /// The table.
        table: TableId,
        /// The deal.
        deal: u32,
    },
    /// A deal beyond the table's last.
    #[error("table {table} plays {deals} deals; there is no deal {got}")]
    TableFinished {
        /// The table.
        table: TableId,
        /// The deals the table plays.
        deals: u32,
        /// The deal given.
        got: u32,
    },
    /// A deal's points name another number of seats than the table has.
    #[error("table {table} has {seats} seats, but the deal gives points for {got}")]
    WrongSeatCount {
        /// The table.
        table: TableId,
        /// The seats at the table.
        seats: usize,
        /// The points given.
        got: usize,
    },
    /// The current round is still being played.
    #[error("round {0} is still being played")]
    RoundNotOver(u32),
    /// The tournament has played its last round.
    #[error("the tournament is over")]
    Finished,
    /// An event that does not fit the state it is applied to (a damaged or reordered log).
    #[error("event does not fit the tournament: {0}")]
    InvalidEvent(String),
}

impl TournamentError {
    /// The stable code of the error, for clients and logs.
    pub const fn code(&self) -> &'static str {
        match self {
            TournamentError::InvalidSettings(_) => "tournament/invalid_settings",
            TournamentError::NameEmpty => "tournament/name_empty",
            TournamentError::NameTooLong { .. } => "tournament/name_too_long",
            TournamentError::NameInvalid => "tournament/name_invalid",
            TournamentError::NameTaken { .. } => "tournament/name_taken",
            TournamentError::Closed => "tournament/closed",
            TournamentError::Full { .. } => "tournament/full",
            TournamentError::UnknownEntrant(_) => "tournament/unknown_entrant",
            TournamentError::AlreadyStarted => "tournament/already_started",
            TournamentError::NotStarted => "tournament/not_started",
            TournamentError::TooFewPlayers { .. } => "tournament/too_few_players",
            TournamentError::CannotSeat { .. } => "tournament/cannot_seat",
            TournamentError::UnknownTable(_) => "tournament/unknown_table",
            TournamentError::DealOutOfOrder { .. } => "tournament/deal_out_of_order",
            TournamentError::DealConflict { .. } => "tournament/deal_conflict",
            TournamentError::TableFinished { .. } => "tournament/table_finished",
            TournamentError::WrongSeatCount { .. } => "tournament/wrong_seat_count",
            TournamentError::RoundNotOver(_) => "tournament/round_not_over",
            TournamentError::Finished => "tournament/finished",
            TournamentError::InvalidEvent(_) => "tournament/invalid_event",
        }
    }
}
