//! Playing again: once the series is over, the host opens a new room with the same rules and
//! seats, and each player accepts by entering it with the seat token he holds here.

use fipsen_protocol::ErrorCode;
use fipsen_rules::Seat;

use super::{Core, Decision, Effect};
use crate::room::record::Record;

impl Core {
    /// The host offers to play again, once, when the series is over.
    pub(super) fn decide_rematch(&self, participant: Option<u32>) -> Result<Decision, ErrorCode> {
        if participant != Some(self.host) {
            return Err(ErrorCode::NotHost);
        }
        let over = self.series.as_ref().is_some_and(|s| s.series_over());
        if !over || self.rematch.is_some() {
            return Err(ErrorCode::RematchUnavailable);
        }
        Ok(Decision::effect(Effect::OpenRematch { records: self.rematch_records() }))
    }

    /// The new room is open: this room names it from now on.
    pub(super) fn decide_rematched(&self, room: String) -> Decision {
        if self.rematch.is_some() { Decision::default() } else { Decision::record(Record::Rematch { room }) }
    }

    /// The first records of the room to play again in: everyone at his seat (a person with the
    /// hash of the seat token he holds here, so that he comes back with it; a bot at its level),
    /// the host among them (or without a seat, if he had none), and the host's part his.
    fn rematch_records(&self) -> Vec<Record> {
        let mut records = Vec::new();
        let mut host = None;
        for (seat, occupant) in self.seats.iter().enumerate() {
            let Some(p) = occupant.and_then(|p| self.participants.get(p as usize)) else { continue };
            let id = records.len() as u32;
            if p.id == self.host {
                host = Some(id);
            }
            let seat = Seat(seat as u8);
            records.push(match p.bot {
                Some(level) => Record::BotAdded { participant: id, seat, level, name: p.name.clone() },
                None => Record::Joined {
                    participant: id,
                    name: p.name.clone(),
                    token_hash: p.token_hash.clone(),
                    seat: Some(seat),
                },
            });
        }
        let host = host.unwrap_or_else(|| {
            let id = records.len() as u32;
            let (name, token_hash) = self
                .participants
                .get(self.host as usize)
                .map(|p| (p.name.clone(), p.token_hash.clone()))
                .unwrap_or_default();
            records.push(Record::Joined { participant: id, name, token_hash, seat: None });
            id
        });
        if host != 0 {
            records.push(Record::HostChanged { participant: host });
        }
        records
    }
}
