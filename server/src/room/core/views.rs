//! The room as its frames, the lobby and `my_rooms` show it.

use std::time::{Duration, Instant};

use fipsen_protocol::{LobbyRoom, MyRoom, RoomOptions, RoomState, RoomStatus, SeatInfo, TableOfTournament, TurnClock};
use fipsen_rules::{AnyGame, Seat};

use super::Core;

impl Core {
    /// The room's status.
    pub fn status(&self) -> RoomStatus {
        match &self.series {
            None => RoomStatus::Waiting,
            Some(s) if s.series_over() || self.table_done() => RoomStatus::Over,
            Some(s) if s.deal_over() => RoomStatus::BetweenDeals,
            Some(_) => RoomStatus::Playing,
        }
    }

    /// The room's state at `now`, as every frame carries it.
    pub fn state(&self, now: Instant) -> RoomState {
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| SeatInfo {
                seat: Seat(i as u8),
                name: p.map(|p| self.name_of(p)),
                connected: p.is_some_and(|p| self.bot_level(p).is_some() || self.is_connected(p)),
                open: self.holds[i].open,
                host: *p == Some(self.host),
                bot: p.and_then(|p| self.bot_level(p)),
                stand_in: self.holds[i].stand_in,
            })
            .collect();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let turn = self.series.as_ref().filter(|s| !s.series_over() && !s.deal_over()).and_then(|s| {
            let seat = s.turn()?;
            let left_ms = self.clock_deadline().map(|(_, at)| ms(at.saturating_duration_since(now)));
            Some(TurnClock { seat, waited_ms: ms(now.saturating_duration_since(self.turn_since)), left_ms })
        });
        RoomState {
            room: self.code.to_string(),
            title: self.title.clone(),
            host: self.name_of(self.host),
            rules: self.rules.clone(),
            options: RoomOptions { title: self.title.clone(), ..self.options.clone() },
            seats,
            spectators: self.spectator_count(),
            status: self.status(),
            turn,
            next_deal_asked: self.next_deal_asked.iter().copied().collect(),
            next_deal_in_ms: match self.next_deal_left {
                Some(left) => Some(ms(left)),
                None => self.next_deal_at.map(|t| ms(t.saturating_duration_since(now))),
            },
            next_deal_paused: self.next_deal_left.is_some(),
            reading: self.reading.keys().copied().collect(),
            tournament: self.table_of_tournament(),
            delete_votes: self.delete_votes.iter().filter_map(|&p| self.seat_of(p)).collect(),
            rematch: self.rematch.clone(),
        }
    }

    /// The tournament this room is a table of, as its views show it.
    fn table_of_tournament(&self) -> Option<TableOfTournament> {
        self.tournament.as_ref().map(|link| TableOfTournament {
            tournament: link.tournament.clone(),
            name: link.name.clone(),
            round: link.table.round,
            rounds: link.rounds,
            table: link.table.table,
            deals: link.deals,
            played: self.counted.len() as u32,
            duplicate: link.duplicate,
        })
    }

    /// Who sits at each seat, by name.
    pub fn players(&self) -> Vec<Option<String>> {
        self.seats.iter().map(|p| p.map(|p| self.name_of(p))).collect()
    }

    /// A participant's summary of the room, for `my_rooms`.
    pub fn summary(&self, participant: u32) -> Option<MyRoom> {
        let p = self.participants.get(participant as usize)?;
        Some(MyRoom {
            room: self.code.to_string(),
            title: self.title.clone(),
            name: p.name.clone(),
            seat: self.seat_of(participant),
            players: self.players(),
            status: self.status(),
            game: Some(self.rules.game()),
            deal: self.series.as_ref().map_or(0, AnyGame::deal_number),
            totals: self.series.as_ref().map_or_else(|| vec![0; self.seats.len()], |s| s.totals().to_vec()),
            broken: false,
        })
    }

    /// The room as the lobby lists it.
    pub fn info(&self) -> LobbyRoom {
        LobbyRoom {
            room: self.code.to_string(),
            title: self.title.clone(),
            host: self.name_of(self.host),
            players: self.players(),
            spectators: self.spectator_count(),
            spectators_allowed: self.options.spectators_allowed,
            status: self.status(),
            rules: self.rules.clone(),
            tournament: self.table_of_tournament(),
        }
    }
}
