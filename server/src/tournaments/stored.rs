//! What a tournament stores (`Stored`) and what its records rebuild (`TaskState`), with the
//! pure checks and names a task uses: no I/O here.

use std::collections::HashMap;

use fipsen_protocol::{ErrorCode, MAX_TITLE_CHARS, RoomOptions};
use fipsen_tournament::{EntrantId, Settings, TableId, Tournament, TournamentError, TournamentEvent};
use serde::{Deserialize, Serialize};

use super::command::Refusal;
use crate::storage::{StoredTournament, TOURNAMENT_RECORD_FORMAT};

/// What a tournament stores: its events, and the server's own records beside them.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub(super) enum Stored {
    /// An event of the tournament crate (the first one is `created`).
    Event {
        /// The event.
        event: TournamentEvent,
    },
    /// The organiser's token (its hash) and the options of the tables' rooms.
    Organiser {
        /// SHA-256 of the organiser's token.
        token_hash: String,
        /// The options of every table's room.
        tables: RoomOptions,
    },
    /// An entrant's token (its hash).
    Entrant {
        /// The entrant.
        entrant: EntrantId,
        /// SHA-256 of his token.
        token_hash: String,
    },
    /// The invite codes of a round's tables, in table order.
    Rooms {
        /// The round.
        round: u32,
        /// The codes.
        rooms: Vec<String>,
    },
}

/// Refuses tables whose series could end before their deals: a table plays its deals, so a
/// game that also ends by rounds (`rounds` among its options) must be given none.
pub(super) fn check_tables_end(settings: &Settings) -> Result<(), TournamentError> {
    for format in &settings.tables {
        let rules = serde_json::to_value(&format.rules).unwrap_or_default();
        if format.rules.deals().is_none() && rules.get("rounds").is_some_and(|r| !r.is_null()) {
            return Err(TournamentError::InvalidSettings(format!(
                "the tables of {} play {} deals: give their rules no number of rounds",
                format.seats, format.deals
            )));
        }
    }
    Ok(())
}

pub(super) fn to_json(record: &Stored) -> Result<String, Refusal> {
    serde_json::to_string(record).map_err(|_| Refusal::Code(ErrorCode::Storage))
}

pub(super) fn records_entrants(records: &[Stored]) -> HashMap<String, EntrantId> {
    records
        .iter()
        .filter_map(|r| match r {
            Stored::Entrant { entrant, token_hash } => Some((token_hash.clone(), *entrant)),
            _ => None,
        })
        .collect()
}

/// A tournament's durable state: what its records rebuild.
#[derive(Debug)]
pub(super) struct TaskState {
    pub(super) tournament: Tournament,
    /// Records stored so far.
    pub(super) records: u64,
    pub(super) organiser_hash: String,
    pub(super) tables: RoomOptions,
    /// Token hash → entrant.
    pub(super) entrants: HashMap<String, EntrantId>,
    /// The codes of each round's tables.
    pub(super) rooms: Vec<Vec<String>>,
}

impl TaskState {
    /// Replays a stored tournament.
    pub(super) fn rebuild(stored: &StoredTournament) -> Result<TaskState, String> {
        let mut events = Vec::new();
        let mut organiser = None;
        let mut entrants = HashMap::new();
        let mut rooms: Vec<Vec<String>> = Vec::new();
        for (index, json) in stored.records.iter().enumerate() {
            let format = stored.formats.get(index).copied().unwrap_or(TOURNAMENT_RECORD_FORMAT);
            if format != TOURNAMENT_RECORD_FORMAT {
                return Err(format!(
                    "record {index} is of format {format} (this build reads format {TOURNAMENT_RECORD_FORMAT})"
                ));
            }
            match serde_json::from_str::<Stored>(json).map_err(|e| format!("record {index}: {e}"))? {
                Stored::Event { event } => events.push(event),
                Stored::Organiser { token_hash, tables } => organiser = Some((token_hash, tables)),
                Stored::Entrant { entrant, token_hash } => {
                    entrants.insert(token_hash, entrant);
                }
                Stored::Rooms { round, rooms: codes } => {
                    let index = round.checked_sub(1).ok_or("round 0")? as usize;
                    if rooms.len() <= index {
                        rooms.resize(index + 1, Vec::new());
                    }
                    rooms[index] = codes;
                }
            }
        }
        let tournament = Tournament::from_events(&events).map_err(|e| e.to_string())?;
        let (organiser_hash, tables) = organiser.ok_or("no organiser")?;
        Ok(TaskState { tournament, records: stored.records.len() as u64, organiser_hash, tables, entrants, rooms })
    }
}

/// The round that `start` or `next_round` would begin.
pub(super) fn next_round_number(t: &Tournament) -> u32 {
    t.rounds().len() as u32 + 1
}

/// A table's room title: the tournament's name (shortened to fit) and the table.
pub(super) fn table_title(name: &str, table: TableId) -> String {
    let suffix = format!(" · R{} T{}", table.round, table.table);
    let room = MAX_TITLE_CHARS.saturating_sub(suffix.chars().count());
    let mut title: String = name.chars().take(room).collect();
    if title.chars().count() < name.chars().count() {
        title.pop();
        title.push('…');
    }
    title + &suffix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_titles_fit_a_room_title() {
        let table = TableId { round: 2, table: 11 };
        assert_eq!(table_title("Friday club", table), "Friday club · R2 T11");
        let long = "x".repeat(64);
        let title = table_title(&long, table);
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.ends_with("… · R2 T11"), "{title}");
    }

    #[test]
    fn stored_records_read_back() {
        let records = [
            Stored::Organiser { token_hash: "h".into(), tables: RoomOptions::default() },
            Stored::Entrant { entrant: EntrantId(3), token_hash: "e".into() },
            Stored::Rooms { round: 1, rooms: vec!["a".into()] },
            Stored::Event { event: TournamentEvent::RegistrationClosed },
        ];
        for record in &records {
            let json = serde_json::to_string(record).unwrap_or_default();
            let back: Stored = serde_json::from_str(&json).unwrap_or(Stored::Rooms { round: 0, rooms: vec![] });
            assert_eq!(serde_json::to_string(&back).unwrap_or_default(), json);
        }
        assert_eq!(
            serde_json::to_string(&records[3]).unwrap_or_default(),
            r#"{"record":"event","event":{"event":"registration_closed"}}"#
        );
    }
}
