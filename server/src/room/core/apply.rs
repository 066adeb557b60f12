//! Applying a change: the one place where the room's state changes.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{RoomEvent, SeqEvent};
use fipsen_rules::{AnyGame, DealSeeds, Seat};
use tracing::{debug, error, info};

use super::{ACKED_IDS, CHAT_LINES, Change, Core, HISTORY, Participant, Passing, SeatHold, Viewer};
use crate::room::record::{Damaged, ReadRecord, Record};

impl Core {
    /// Applies one change at `now` and gives the room events it caused, numbered. A record is
    /// applied the same way live and when the room is rebuilt from storage.
    ///
    /// Live, a record is stored only once the rules accepted it, so the rules never refuse it
    /// here; if they did (a bug), it is logged at error level, as a restart would find the room
    /// broken ([`Core::restore_record`]).
    pub fn apply(&mut self, change: &Change, now: Instant) -> Vec<SeqEvent> {
        let (events, refused) = self.apply_change(change, now);
        if let Some(reason) = refused {
            error!(
                room = %self.code,
                record = self.records.saturating_sub(1),
                reason,
                "a stored record was refused as it was applied: the room's log no longer rebuilds it"
            );
        }
        events
    }

    /// Applies one stored record while the room is rebuilt: its number must be the next one,
    /// the rebuild must not be past the sequence number stored with it, and the rules must
    /// accept it. Between two records, the rebuild skips to the number stored with the second:
    /// the numbers between were taken by events that are not stored (connections, timers).
    ///
    /// # Errors
    /// The record does not rebuild what was acknowledged: the room must not be restored. The
    /// room is then left half rebuilt.
    pub fn restore_record(&mut self, read: &ReadRecord, now: Instant) -> Result<Vec<SeqEvent>, Damaged> {
        if read.index != self.records {
            return Err(Damaged::Missing { index: self.records, found: read.index });
        }
        if self.seq > read.seq_before {
            return Err(Damaged::Sequence { index: read.index, stored: read.seq_before, rebuilt: self.seq });
        }
        self.seq = read.seq_before;
        match self.apply_change(&Change::Record(read.record.clone()), now) {
            (events, None) => Ok(events),
            (_, Some(reason)) => Err(Damaged::Refused { index: read.index, reason }),
        }
    }

    /// [`Core::apply`], and why the rules (or the room) refused the record, if they did.
    fn apply_change(&mut self, change: &Change, now: Instant) -> (Vec<SeqEvent>, Option<String>) {
        let mut refused = None;
        let events = match change {
            Change::Record(record) => {
                self.records += 1;
                let events = self.apply_record(record, &mut refused);
                if refused.is_none() {
                    let mut index = std::mem::take(&mut self.index);
                    index.follow(self.records - 1, record, self.series.as_ref(), || {
                        (self.players(), self.seats.clone())
                    });
                    self.index = index;
                }
                events
            }
            Change::Passing(passing) => self.apply_passing(passing, now),
        };
        self.note_deal_end();
        let numbered = self.number(events, now);
        if let Change::Record(Record::Act { participant, id, .. }) = change
            && let Some(p) = self.participants.get_mut(*participant as usize)
        {
            if p.acked.len() == ACKED_IDS {
                p.acked.pop_front();
            }
            p.acked.push_back((*id, self.seq));
            p.last_act_id = Some(p.last_act_id.map_or(*id, |last| last.max(*id)));
        }
        self.reschedule(now);
        (numbered, refused)
    }

    /// The events of one record; `refused` says why, if the rules or the room refused it (it
    /// then changes what it changed before, as it always did live).
    fn apply_record(&mut self, record: &Record, refused: &mut Option<String>) -> Vec<RoomEvent> {
        let mut events = Vec::new();
        match record {
            Record::Joined { participant, name, token_hash, seat } => {
                self.participants.push(Participant {
                    id: *participant,
                    name: name.clone(),
                    token_hash: token_hash.clone(),
                    acked: VecDeque::new(),
                    last_act_id: None,
                    bot: None,
                });
                if let Some(seat) = seat {
                    self.sit(*participant, *seat, &mut events);
                }
            }
            Record::BotAdded { participant, seat, level, name } => {
                self.participants.push(Participant {
                    id: *participant,
                    name: name.clone(),
                    token_hash: String::new(),
                    acked: VecDeque::new(),
                    last_act_id: None,
                    bot: Some(*level),
                });
                self.sit(*participant, *seat, &mut events);
            }
            Record::DeleteVote { participant, agree } => {
                if *agree {
                    self.delete_votes.insert(*participant);
                } else {
                    self.delete_votes.remove(participant);
                }
                if let Some(seat) = self.seat_of(*participant) {
                    events.push(RoomEvent::DeleteVote { seat, agree: *agree });
                }
            }
            Record::HostChanged { participant } => {
                self.host = *participant;
                let seat = self.seat_of(*participant);
                events.push(RoomEvent::HostChanged { name: self.name_of(*participant), seat });
            }
            Record::BotRemoved { seat } => {
                if let Some(slot) = self.seats.get_mut(seat.index()) {
                    *slot = None;
                    self.holds[seat.index()] = SeatHold::default();
                    events.push(RoomEvent::BotRemoved { seat: *seat });
                }
            }
            Record::Seated { participant, seat } => self.sit(*participant, *seat, &mut events),
            Record::LeftSeat { participant } => {
                if let Some(seat) = self.seat_of(*participant) {
                    self.seats[seat.index()] = None;
                    self.holds[seat.index()] = SeatHold::default();
                    events.push(RoomEvent::LeftSeat { seat });
                }
            }
            Record::Started if self.series.is_some() => *refused = Some("a second start of the series".into()),
            Record::Started => match start_series(&self.rules, self.master, self.tournament.is_some()) {
                Ok((series, dealt)) => {
                    self.series = Some(series);
                    let people: Vec<u32> =
                        self.seats.iter().flatten().copied().filter(|&p| self.bot_level(p).is_none()).collect();
                    self.series_people.extend(people);
                    events.push(RoomEvent::Started);
                    events.extend(dealt.into_iter().map(|event| RoomEvent::Game { event }));
                }
                Err(e) => *refused = Some(format!("the series cannot start: {e}")),
            },
            Record::Public { public } => {
                self.options.public = *public;
                events.push(RoomEvent::Public { public: *public });
            }
            Record::Act { seat, action, .. } | Record::BotAct { seat, action } => {
                match &mut self.series {
                    Some(series) => match series.apply(*seat, action) {
                        Ok(game) => events.extend(game.into_iter().map(|event| RoomEvent::Game { event })),
                        // The code only: the action may name a card of a hidden hand.
                        Err(e) => *refused = Some(format!("the rules refuse the action: {}", e.code())),
                    },
                    None => *refused = Some("an action before the series started".into()),
                }
            }
            Record::NextDeal => {
                if let Some(series) = &mut self.series {
                    if let Some(finished) = FinishedDeal::of(series) {
                        self.previous_deal = Some((series.deal_number(), finished));
                    }
                    match series.next_deal() {
                        Ok(game) => events.extend(game.into_iter().map(|event| RoomEvent::Game { event })),
                        Err(e) => *refused = Some(format!("the rules refuse the next deal: {}", e.code())),
                    }
                } else {
                    *refused = Some("a next deal before the series started".into());
                }
                self.next_deal_asked.clear();
                self.next_deal_at = None;
            }
            Record::Rematch { room } => {
                self.rematch = Some(room.clone());
                events.push(RoomEvent::Rematch { room: room.clone() });
            }
            Record::Chat { line } => {
                if self.chat.len() == CHAT_LINES {
                    self.chat.pop_front();
                }
                self.chat.push_back(line.clone());
                events.push(RoomEvent::Chat(line.clone()));
            }
        }
        events
    }

    fn apply_passing(&mut self, passing: &Passing, now: Instant) -> Vec<RoomEvent> {
        let mut events = Vec::new();
        match passing {
            Passing::Connected { conn, participant, name, announce, since } => {
                self.add_viewer(
                    *conn,
                    Viewer {
                        participant: *participant,
                        name: name.clone(),
                        since: *since,
                        chat_tokens: super::requests::CHAT_BURST,
                        chat_refill: now,
                    },
                );
                self.empty_since = None;
                match participant.and_then(|p| self.seat_of(p)) {
                    Some(seat) => {
                        // A bot standing in plays on until the trick in progress is over.
                        let stand_in = self.holds[seat.index()].stand_in;
                        self.holds[seat.index()] = SeatHold { stand_in, ..SeatHold::default() };
                        if *announce {
                            events.push(RoomEvent::Connected { seat });
                        }
                    }
                    None if participant.is_none() && *announce => self.audience_changed(now),
                    None => {}
                }
            }
            Passing::Replaced { conn } => {
                self.remove_viewer(*conn);
            }
            Passing::Disconnected { conn } => {
                let Some(viewer) = self.remove_viewer(*conn) else { return events };
                match viewer.participant {
                    Some(id) => {
                        if let (Some(seat), false) = (self.seat_of(id), self.is_connected(id)) {
                            let grace = Duration::from_secs(u64::from(self.options.grace_seconds));
                            let stand_in = self.holds[seat.index()].stand_in;
                            self.holds[seat.index()] =
                                SeatHold { grace_until: Some(now + grace), open: false, stand_in };
                            events.push(RoomEvent::Disconnected { seat });
                        }
                    }
                    None => self.audience_changed(now),
                }
                if self.viewers.is_empty() {
                    self.empty_since = Some(now);
                }
            }
            Passing::AudienceTold => {
                self.audience_due = None;
                if self.spectators != self.audience_told {
                    self.audience_told = self.spectators;
                    events.push(RoomEvent::Spectators { count: self.spectators });
                }
            }
            Passing::ChatSpent { conn, tokens } => {
                if let Some(viewer) = self.viewers.get_mut(conn) {
                    viewer.chat_tokens = *tokens;
                    viewer.chat_refill = now;
                }
            }
            Passing::NextDealAsked { seat } => {
                if self.next_deal_asked.insert(*seat) {
                    events.push(RoomEvent::NextDealAsked { seat: *seat });
                    if self.stop_reading(*seat, now) {
                        events.push(RoomEvent::Reading { seat: *seat, reading: false });
                    }
                }
            }
            Passing::Reading { seat, reading } => {
                let changed = if *reading {
                    let left = self.reading_left_of(*seat);
                    !left.is_zero() && self.reading.insert(*seat, now + left).is_none()
                } else {
                    self.stop_reading(*seat, now)
                };
                if changed {
                    self.reschedule(now);
                    events.push(RoomEvent::Reading { seat: *seat, reading: *reading });
                }
            }
            Passing::Nudged { by, seats } => {
                self.last_nudge = Some(now);
                events.extend(seats.iter().map(|&seat| RoomEvent::Nudged { seat, by: *by }));
            }
            Passing::GraceOver { seat, stand_in } => {
                let already = self.holds[seat.index()].stand_in;
                self.holds[seat.index()] = SeatHold { grace_until: None, open: true, stand_in: already.or(*stand_in) };
                events.push(RoomEvent::SeatOpen { seat: *seat });
                if let (Some(level), None) = (stand_in, already) {
                    info!(room = %self.code, seat = seat.0, level = level.name(), "a bot stands in for an absent player");
                    events.push(RoomEvent::StandIn { seat: *seat, level: *level });
                }
            }
            Passing::ClockRanOut { seat, level } => {
                info!(room = %self.code, seat = seat.0, "the move clock ran out: a bot makes the move");
                self.clock_move = Some((*seat, self.last_game_seq, *level));
                events.push(RoomEvent::ClockRanOut { seat: *seat, level: *level });
            }
            Passing::StandInEnded { seat } => {
                if self.holds[seat.index()].stand_in.take().is_some() {
                    info!(room = %self.code, seat = seat.0, "the player is back; the bot stands down");
                    events.push(RoomEvent::StandInEnded { seat: *seat });
                }
            }
            Passing::PassedOutOfTurn { seat } => self.passed_out_of_turn = Some((*seat, self.last_game_seq)),
        }
        events
    }

    fn sit(&mut self, participant: u32, seat: Seat, events: &mut Vec<RoomEvent>) {
        let Some(slot) = self.seats.get(seat.index()).copied() else { return };
        if let Some(old) = self.seat_of(participant) {
            self.seats[old.index()] = None;
            self.holds[old.index()] = SeatHold::default();
            events.push(RoomEvent::LeftSeat { seat: old });
        }
        if let Some(previous) = slot {
            if self.bot_level(previous).is_some() {
                // A person takes a bot's seat: the bot leaves the table.
                events.push(RoomEvent::BotRemoved { seat });
            }
            // An open seat taken over: its former player keeps his token but no seat; his
            // connections now watch as he may (a seatless player sees what a spectator sees).
            debug!(room = %self.code, seat = seat.0, previous, "seat taken over");
        }
        self.seats[seat.index()] = Some(participant);
        self.holds[seat.index()] = SeatHold::default();
        if self.series.is_some() && self.bot_level(participant).is_none() {
            self.series_people.insert(participant);
        }
        let name = self.name_of(participant);
        events.push(match self.bot_level(participant) {
            Some(level) => RoomEvent::BotAdded { seat, level, name },
            None => RoomEvent::Seated { seat, name },
        });
    }

    /// Gives events their sequence numbers and keeps them for reconnecting clients.
    fn number(&mut self, events: Vec<RoomEvent>, now: Instant) -> Vec<SeqEvent> {
        events
            .into_iter()
            .map(|event| {
                self.seq += 1;
                if matches!(event, RoomEvent::Game { .. }) {
                    self.last_game_seq = self.seq;
                    self.turn_since = now;
                }
                let numbered = SeqEvent { seq: self.seq, event };
                if self.history.len() == HISTORY
                    && let Some(dropped) = self.history.pop_front()
                {
                    self.history_start = dropped.seq;
                }
                self.history.push_back(numbered.clone());
                numbered
            })
            .collect()
    }

    /// Holds every seated person's seat for the grace period from `now` (nobody is connected
    /// yet: after a restart, or when a tournament table opens).
    pub fn hold_absent_seats(&mut self, now: Instant) {
        let grace = now + Duration::from_secs(u64::from(self.options.grace_seconds));
        for seat in 0..self.seats.len() {
            if self.seats[seat].is_some_and(|p| self.bot_level(p).is_none() && !self.is_connected(p)) {
                self.holds[seat] = SeatHold { grace_until: Some(grace), ..SeatHold::default() };
            }
        }
    }
}

/// The series a room's start record starts: the first deal dealt from the master seed; at a
/// tournament's table (`tournament`), the deals to come seeded by counted deal, so that the
/// d-th counted deal comes from the same stream at every table of a size. The same for the live
/// room, its restore and a replay of its first deal.
///
/// # Errors
/// The rules refuse an option.
pub fn start_series(
    rules: &fipsen_rules::GameRules,
    master: fipsen_rules::Seed,
    tournament: bool,
) -> Result<(AnyGame, fipsen_rules::GameEvents), fipsen_rules::RuleSetError> {
    let (mut series, dealt) = AnyGame::start(rules, master)?;
    if tournament {
        series.set_deal_seeds(DealSeeds::ByCountedDeal);
    }
    Ok((series, dealt))
}
