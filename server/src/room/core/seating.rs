//! Who is in the room and where they sit: joining, resuming, leaving, seats, bots, the start,
//! and the host's part.

use fipsen_bots::Level;
use fipsen_protocol::ErrorCode;
use fipsen_rules::{RuleError, Seat};

use super::{Change, Core, Decision, Effect, Passing};
use crate::room::command::JoinKind;
use crate::room::link::ConnId;
use crate::room::record::Record;
use crate::secrets;

impl Core {
    pub(super) fn decide_join(
        &self,
        conn: ConnId,
        kind: JoinKind,
        fresh_token: String,
        seen: u64,
    ) -> Result<Decision, ErrorCode> {
        // One participant, one seat: a player joining with a token he already holds here, or
        // with the key of a join already made (sent again, its answer lost), comes back as that
        // participant instead of taking a second seat.
        let kind = match kind {
            JoinKind::Player { name, token, key } => {
                if key.as_deref().is_some_and(|key| !secrets::valid_join_key(key)) {
                    return Err(ErrorCode::JoinKeyInvalid);
                }
                let keyed = key.as_deref().map(|key| secrets::seat_token_for_key(&self.code, key));
                match token.into_iter().chain(keyed).find(|token| self.token_holder(token).is_some()) {
                    Some(token) => JoinKind::Resume { token, last_seq: None },
                    None => JoinKind::Player { name, token: None, key },
                }
            }
            kind => kind,
        };
        match kind {
            JoinKind::Spectator { name } => {
                if !self.options.spectators_allowed {
                    return Err(ErrorCode::NoSpectators);
                }
                if self.spectators >= self.audience_cap {
                    return Err(ErrorCode::AudienceFull);
                }
                let name = self.unique_name(&name);
                let connected = Passing::Connected { conn, participant: None, name, announce: true, since: seen };
                Ok(Decision::passing(connected).with(Effect::Admit { conn, token: None, last_seq: None }))
            }
            JoinKind::Player { .. } if self.tournament.is_some() => Err(ErrorCode::TournamentTable),
            JoinKind::Player { name, key, .. } => {
                let name = self.unique_name(&name);
                let seat = self.free_seat_for_newcomer()?;
                let id = self.participants.len() as u32;
                // With a key, the token is the key's: the same join sent again finds him by it.
                let token = key.map_or(fresh_token, |key| secrets::seat_token_for_key(&self.code, &key));
                let token_hash = secrets::token_hash(&token);
                let joined = Record::Joined { participant: id, name: name.clone(), token_hash, seat };
                let connected = Passing::Connected { conn, participant: Some(id), name, announce: false, since: seen };
                Ok(Decision {
                    changes: vec![Change::Record(joined), Change::Passing(connected)],
                    effects: vec![Effect::Admit { conn, token: Some(token), last_seq: None }],
                })
            }
            JoinKind::Resume { token, last_seq } => {
                let Some(id) = self.token_holder(&token) else {
                    return Err(ErrorCode::TokenInvalid);
                };
                // A request older than the connection the player has now (sent before the client
                // gave up on it, and carried out late) does not take the seat from it.
                if self.viewers.values().any(|v| v.participant == Some(id) && v.since > seen) {
                    return Err(ErrorCode::Superseded);
                }
                // The same player on an older connection (another tab, a dead socket): replaced.
                let older: Vec<ConnId> =
                    self.viewers.iter().filter(|(_, v)| v.participant == Some(id)).map(|(c, _)| *c).collect();
                let mut decision = Decision::default();
                for old in older {
                    decision.changes.push(Change::Passing(Passing::Replaced { conn: old }));
                    decision.effects.push(Effect::Close { conn: old });
                }
                let name = self.name_of(id);
                decision.changes.push(Change::Passing(Passing::Connected {
                    conn,
                    participant: Some(id),
                    name,
                    announce: true,
                    since: seen,
                }));
                decision.effects.push(Effect::Admit {
                    conn,
                    token: Some(token),
                    last_seq: Some(last_seq.unwrap_or(u64::MAX)),
                });
                Ok(decision)
            }
        }
    }

    pub(super) fn decide_leave(&self, conn: ConnId) -> Decision {
        if self.viewers.contains_key(&conn) {
            Decision::passing(Passing::Disconnected { conn })
        } else {
            Decision::default()
        }
    }

    /// The person (never a bot) whose seat token this is.
    fn token_holder(&self, token: &str) -> Option<u32> {
        let hash = secrets::token_hash(token);
        self.participants.iter().find(|p| p.bot.is_none() && p.token_hash == hash).map(|p| p.id)
    }

    /// `name`, or `name (2)`, `name (3)`, … if someone in the room (a player, a bot or a
    /// spectator here now) already goes by it, so that nobody can pass for another.
    fn unique_name(&self, name: &str) -> String {
        let taken = |candidate: &str| {
            let candidate = candidate.to_lowercase();
            self.names_here.contains_key(&candidate)
                || self.participants.iter().any(|p| p.name.to_lowercase() == candidate)
        };
        if !taken(name) {
            return name.to_string();
        }
        (2..).map(|n| format!("{name} ({n})")).find(|candidate| !taken(candidate)).unwrap_or_else(|| name.to_string())
    }

    /// The seat a newly joining player takes: the first free seat before the start, the first
    /// open seat after it.
    fn free_seat_for_newcomer(&self) -> Result<Option<Seat>, ErrorCode> {
        let started = self.series.is_some();
        let free = (0..self.seats.len())
            .find(|&s| self.seats[s].is_none() || (started && self.holds[s].open))
            .or_else(|| (0..self.seats.len()).find(|&s| self.bot_gives_way(Seat(s as u8))));
        match (free, started) {
            (Some(s), _) => Ok(Some(Seat(s as u8))),
            (None, true) => Err(ErrorCode::RoomStarted),
            (None, false) => Err(ErrorCode::RoomFull),
        }
    }

    /// A bot sits at `seat` and would give it up to a person now: before the series or between
    /// deals (bots fill seats until people come).
    fn bot_gives_way(&self, seat: Seat) -> bool {
        let mid_deal = self.series.as_ref().is_some_and(|s| !s.deal_over());
        !mid_deal && self.seats[seat.index()].is_some_and(|p| self.bot_level(p).is_some())
    }

    pub(super) fn decide_take_seat(
        &self,
        participant: Option<u32>,
        seat: Option<Seat>,
        target: Seat,
    ) -> Result<Decision, ErrorCode> {
        let id = participant.ok_or(ErrorCode::NotSeated)?;
        if target.index() >= self.seats.len() {
            return Err(ErrorCode::SeatInvalid);
        }
        let started = self.series.is_some();
        let occupant = self.seats[target.index()];
        if occupant == Some(id) {
            return Err(ErrorCode::SeatTaken);
        }
        if occupant.is_some() && !self.holds[target.index()].open && !self.bot_gives_way(target) {
            return Err(ErrorCode::SeatTaken);
        }
        if started && seat.is_some() {
            return Err(ErrorCode::RoomStarted);
        }
        Ok(Decision::record(Record::Seated { participant: id, seat: target }))
    }

    pub(super) fn decide_leave_seat(
        &self,
        participant: Option<u32>,
        seat: Option<Seat>,
    ) -> Result<Decision, ErrorCode> {
        let id = participant.ok_or(ErrorCode::NotSeated)?;
        if seat.is_none() {
            return Err(ErrorCode::NotSeated);
        }
        if self.series.is_some() {
            return Err(ErrorCode::RoomStarted);
        }
        Ok(Decision::record(Record::LeftSeat { participant: id }))
    }

    pub(super) fn decide_start(&self, participant: Option<u32>) -> Result<Decision, ErrorCode> {
        if participant != Some(self.host) {
            return Err(ErrorCode::NotHost);
        }
        if self.series.is_some() {
            return Err(ErrorCode::RoomStarted);
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(ErrorCode::SeatsNotFull);
        }
        Ok(Decision::record(Record::Started))
    }

    pub(super) fn decide_add_bot(
        &self,
        participant: Option<u32>,
        target: Seat,
        level: Level,
    ) -> Result<Decision, ErrorCode> {
        self.check_bot_change(participant, target)?;
        let occupant = self.seats[target.index()];
        if occupant.is_some() && !self.holds[target.index()].open {
            return Err(ErrorCode::SeatTaken);
        }
        Ok(Decision::record(Record::BotAdded {
            participant: self.participants.len() as u32,
            seat: target,
            level,
            name: self.unique_name(&format!("Bot {}", target.0 + 1)),
        }))
    }

    pub(super) fn decide_remove_bot(&self, participant: Option<u32>, target: Seat) -> Result<Decision, ErrorCode> {
        self.check_bot_change(participant, target)?;
        if self.seats[target.index()].and_then(|p| self.bot_level(p)).is_none() {
            return Err(ErrorCode::NotABot);
        }
        Ok(Decision::record(Record::BotRemoved { seat: target }))
    }

    /// Whether `participant` may add or remove a bot at `seat` now: the host, a real seat,
    /// before the series or between deals.
    fn check_bot_change(&self, participant: Option<u32>, seat: Seat) -> Result<(), ErrorCode> {
        if participant != Some(self.host) {
            return Err(ErrorCode::NotHost);
        }
        if seat.index() >= self.seats.len() {
            return Err(ErrorCode::SeatInvalid);
        }
        match &self.series {
            None => Ok(()),
            Some(series) if series.series_over() => Err(ErrorCode::Rule(RuleError::SeriesOver)),
            Some(series) if series.deal_over() => Ok(()),
            Some(_) => Err(ErrorCode::BotMidDeal),
        }
    }

    /// The host's part passes to another player once the host is gone: disconnected past his
    /// grace period (or disconnected without a seat to hold). The first connected player by
    /// seat takes it (a seatless one if nobody sits); the old host does not get it back by
    /// returning.
    pub(super) fn host_passing(&self) -> Option<Change> {
        if self.participants.is_empty() || self.is_connected(self.host) {
            return None;
        }
        let gone = match self.seat_of(self.host) {
            Some(seat) => self.holds[seat.index()].open,
            None => true,
        };
        if !gone {
            return None;
        }
        let seated = self.seats.iter().flatten().copied();
        let everyone = self.participants.iter().map(|p| p.id);
        let next =
            seated.chain(everyone).find(|&p| p != self.host && self.bot_level(p).is_none() && self.is_connected(p))?;
        Some(Change::Record(Record::HostChanged { participant: next }))
    }

    /// Returned players take their seats back from the bots standing in, once no trick is in
    /// progress (at once during the auction or between deals).
    pub(super) fn hand_backs(&self) -> Vec<Change> {
        let between_tricks = self.series.as_ref().is_none_or(|s| !s.trick_in_progress());
        if !between_tricks {
            return Vec::new();
        }
        (0..self.seats.len())
            .filter(|&seat| {
                self.holds[seat].stand_in.is_some() && self.seats[seat].is_some_and(|p| self.is_connected(p))
            })
            .map(|seat| Change::Passing(Passing::StandInEnded { seat: Seat(seat as u8) }))
            .collect()
    }
}
