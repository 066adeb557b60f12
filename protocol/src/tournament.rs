//! What a tournament is made of, as clients see it: its public view with the rooms of its
//! tables, how the entrants would be seated, and who the receiving connection is in it.
//!
//! The tournament's own types ([`TournamentView`], [`Settings`], [`Results`], …) come from the
//! `fipsen-tournament` crate unchanged.

use fipsen_rules::GameId;
use fipsen_tournament::{EntrantId, Phase, TournamentError, TournamentView};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::room::RoomOptions;

/// The most tournaments one `tournaments` answer lists.
pub const TOURNAMENT_PAGE: u32 = 50;

/// The options of a tournament's tables as `create_tournament` gives them: a room's options
/// ([`RoomOptions`]), each field optional. Left out, `spectators_allowed` follows the
/// tournament: a duplicate tournament's tables refuse spectators (a spectator of a table that is
/// ahead would see deals the other tables have still to play), other tables take them.
///
/// ```json
/// {"grace_seconds": 120, "next_deal_seconds": 10}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TournamentTables {
    /// The options as given, the missing ones at their defaults.
    pub options: RoomOptions,
    /// Whether `spectators_allowed` was given.
    pub spectators_given: bool,
}

impl TournamentTables {
    /// Options that say every field, `spectators_allowed` included.
    pub fn given(options: RoomOptions) -> TournamentTables {
        TournamentTables { options, spectators_given: true }
    }

    /// The options of the tables of a tournament with (`duplicate`) or without duplicate deals.
    pub fn for_tournament(self, duplicate: bool) -> RoomOptions {
        let spectators_allowed = if self.spectators_given { self.options.spectators_allowed } else { !duplicate };
        RoomOptions { spectators_allowed, ..self.options }
    }
}

impl Serialize for TournamentTables {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(&self.options).map_err(serde::ser::Error::custom)?;
        if !self.spectators_given
            && let Some(map) = value.as_object_mut()
        {
            map.remove("spectators_allowed");
        }
        value.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TournamentTables {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let spectators_given = value.get("spectators_allowed").is_some();
        let options = RoomOptions::deserialize(value).map_err(serde::de::Error::custom)?;
        Ok(TournamentTables { options, spectators_given })
    }
}

impl JsonSchema for TournamentTables {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TournamentTables".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        generator.subschema_for::<RoomOptions>()
    }
}

/// Who the receiving connection is in a tournament, by the token it watches with.
///
/// ```json
/// {"organiser": true, "entrant": 1}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct TournamentYou {
    /// Whether you run the tournament (you may remove entrants, close registration, start it
    /// and start each next round).
    pub organiser: bool,
    /// Your entrant id, if you play.
    pub entrant: Option<EntrantId>,
}

/// How the entrants registered now would be seated at the start, and how many deals each
/// table would play a round.
///
/// ```json
/// {"tables": [4, 4, 3], "deals": [100, 100, 120], "bots_needed": 0, "bot_tables": [], "bot_deals": [], "problem": null}
/// {"tables": [], "deals": [], "bots_needed": 1, "bot_tables": [3, 3], "bot_deals": [120, 120], "problem": "tournament/cannot_seat"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatingPreview {
    /// The size of each table, the full ones first; empty when they cannot be seated as they are.
    pub tables: Vec<u32>,
    /// The deals each table of `tables` plays a round.
    #[serde(default)]
    pub deals: Vec<u32>,
    /// The fewest bots that make them seatable (0 when they are): what `start_tournament` with
    /// `fill_with_bots` adds.
    pub bots_needed: u32,
    /// With the bots of `bots_needed`: the size of each table (empty when no bot is needed).
    #[serde(default)]
    pub bot_tables: Vec<u32>,
    /// The deals each table of `bot_tables` plays a round.
    #[serde(default)]
    pub bot_deals: Vec<u32>,
    /// Why they cannot be seated as they are: `tournament/cannot_seat` (for four-player tables
    /// with at most three of three: 5 players) or `tournament/too_few_players`.
    pub problem: Option<String>,
}

/// A tournament as everyone may see it, with the invite codes of its tables' rooms.
///
/// ```json
/// {"code": "Tq7cW0pLx2Zr9Ks4NvB1", "view": {"id": "Tq7cW0pLx2Zr9Ks4NvB1", "...": "see TournamentView"},
///  "rooms": [["k3JX9a2LqP0vWm4Zb7Ya", "p0Lq8Nc2Vb5Xz1Mw3Rt6"]], "seating": null,
///  "tables": {"grace_seconds": 120, "...": "see RoomOptions"}, "you": {"organiser": false, "entrant": 3}}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentState {
    /// The tournament's link code (its id): the registration link carries it.
    pub code: String,
    /// Everything public: settings, entrants, rounds with their seating, commitments and (once a
    /// round is over) secrets, and the live standings with the tie-break rule.
    pub view: TournamentView,
    /// The invite code of each table's room: `rooms[r][t]` is table `t + 1` of round `r + 1`.
    /// Anyone may watch a table; its players come in with their tournament token (`resume`).
    pub rooms: Vec<Vec<String>>,
    /// Before the start: how the entrants would be seated now.
    pub seating: Option<SeatingPreview>,
    /// The options of the tables' rooms (grace period, pauses, the bots that stand in).
    pub tables: RoomOptions,
    /// Who you are in it.
    pub you: TournamentYou,
}

/// A tournament in the public list.
///
/// ```json
/// {"code": "Tq7cW0pLx2Zr9Ks4NvB1", "name": "Club night, Friday", "organiser": "Olli",
///  "game": "…", "phase": {"phase": "registration"}, "entrants": 9, "rounds": 1}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentSummary {
    /// The link code.
    pub code: String,
    /// The tournament's name.
    pub name: String,
    /// The organiser's name.
    pub organiser: String,
    /// The game every table plays.
    pub game: GameId,
    /// Where it stands.
    pub phase: Phase,
    /// The entrants so far.
    pub entrants: u32,
    /// Its rounds.
    pub rounds: u32,
}

/// A table's tie to its tournament, shown with the room.
///
/// ```json
/// {"tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "name": "Club night, Friday", "round": 1, "rounds": 2,
///  "table": 3, "deals": 120, "played": 17, "duplicate": true}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TableOfTournament {
    /// The tournament's link code.
    pub tournament: String,
    /// The tournament's name.
    pub name: String,
    /// The round, from 1.
    pub round: u32,
    /// The tournament's rounds.
    pub rounds: u32,
    /// The table's number in the round, from 1.
    pub table: u32,
    /// The deals this table plays (deals that count: a thrown-in deal is dealt again).
    pub deals: u32,
    /// The deals played so far that count.
    pub played: u32,
    /// Whether every table of this size plays the same deals.
    pub duplicate: bool,
}

/// One value of every [`TournamentError`] variant, so that every tournament code is listed (and
/// the schema names them all). The match in `variant_number` makes the compiler flag a new
/// variant of the tournament crate.
pub fn every_tournament_error() -> Vec<TournamentError> {
    use fipsen_tournament::TableId;
    let table = TableId { round: 1, table: 1 };
    let all = vec![
        TournamentError::InvalidSettings(String::new()),
        TournamentError::NameEmpty,
        TournamentError::NameTooLong { chars: 33, max: 32 },
        TournamentError::NameInvalid,
        TournamentError::NameTaken { name: String::new() },
        TournamentError::Closed,
        TournamentError::Full { max: 128 },
        TournamentError::UnknownEntrant(EntrantId(1)),
        TournamentError::AlreadyStarted,
        TournamentError::NotStarted,
        TournamentError::TooFewPlayers { players: 1, needed: 3 },
        TournamentError::CannotSeat { players: 5, tables: String::new(), bots: 1 },
        TournamentError::UnknownTable(table),
        TournamentError::DealOutOfOrder { table, expected: 1, got: 2 },
        TournamentError::DealConflict { table, deal: 1 },
        TournamentError::TableFinished { table, deals: 1, got: 2 },
        TournamentError::WrongSeatCount { table, seats: 4, got: 3 },
        TournamentError::RoundNotOver(1),
        TournamentError::Finished,
        TournamentError::InvalidEvent(String::new()),
    ];
    debug_assert!(all.iter().enumerate().all(|(i, e)| variant_number(e) == i));
    all
}

/// The position of a variant in [`every_tournament_error`]; exhaustive on purpose.
const fn variant_number(error: &TournamentError) -> usize {
    match error {
        TournamentError::InvalidSettings(_) => 0,
        TournamentError::NameEmpty => 1,
        TournamentError::NameTooLong { .. } => 2,
        TournamentError::NameInvalid => 3,
        TournamentError::NameTaken { .. } => 4,
        TournamentError::Closed => 5,
        TournamentError::Full { .. } => 6,
        TournamentError::UnknownEntrant(_) => 7,
        TournamentError::AlreadyStarted => 8,
        TournamentError::NotStarted => 9,
        TournamentError::TooFewPlayers { .. } => 10,
        TournamentError::CannotSeat { .. } => 11,
        TournamentError::UnknownTable(_) => 12,
        TournamentError::DealOutOfOrder { .. } => 13,
        TournamentError::DealConflict { .. } => 14,
        TournamentError::TableFinished { .. } => 15,
        TournamentError::WrongSeatCount { .. } => 16,
        TournamentError::RoundNotOver(_) => 17,
        TournamentError::Finished => 18,
        TournamentError::InvalidEvent(_) => 19,
    }
}
