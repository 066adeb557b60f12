//! A connection's requests: who may ask what, when; each handled in the part of the core it
//! belongs to.

use std::time::Duration;

use fipsen_rules::{GameQuery, RuleError};

use fipsen_protocol::{ChatLine, ErrorCode, MAX_CHAT_CHARS, Role, RoomMessage, ServerMessage};

use super::{At, Change, Core, Decision, Effect, Passing};
use crate::room::link::ConnId;
use crate::room::record::Record;
use crate::secrets;
use crate::text::clean_text;

/// Chat lines a connection may send per [`CHAT_WINDOW`].
pub const CHAT_BURST: f64 = 5.0;
/// The window of [`CHAT_BURST`].
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

impl Core {
    pub(super) fn decide_request(&self, conn: ConnId, request: RoomMessage, at: At) -> Result<Decision, ErrorCode> {
        let Some(viewer) = self.viewers.get(&conn) else { return Err(ErrorCode::NotInRoom) };
        let participant = viewer.participant;
        let seat = participant.and_then(|p| self.seat_of(p));
        let reseats = matches!(
            request,
            RoomMessage::TakeSeat { .. }
                | RoomMessage::LeaveSeat
                | RoomMessage::Start
                | RoomMessage::SetPublic { .. }
                | RoomMessage::AddBot { .. }
                | RoomMessage::RemoveBot { .. }
                | RoomMessage::DeleteSeries { .. }
                | RoomMessage::Rematch
        );
        if reseats && self.tournament.is_some() {
            return Err(ErrorCode::TournamentTable);
        }
        match request {
            RoomMessage::TakeSeat { seat: target } => self.decide_take_seat(participant, seat, target),
            RoomMessage::LeaveSeat => self.decide_leave_seat(participant, seat),
            RoomMessage::Start => self.decide_start(participant),
            RoomMessage::SetPublic { public } => {
                if participant != Some(self.host) {
                    return Err(ErrorCode::NotHost);
                }
                Ok(Decision::record(Record::Public { public }))
            }
            RoomMessage::Act { id, seq, action } => {
                let (Some(p), Some(seat)) = (participant, seat) else { return Err(ErrorCode::NotSeated) };
                self.decide_act(conn, p, seat, id, seq, action)
            }
            RoomMessage::NextDeal => self.decide_next_deal(seat),
            RoomMessage::Chat { text } => self.decide_chat(conn, participant, seat, &text, at),
            RoomMessage::AddBot { seat: target, level } => self.decide_add_bot(participant, target, level),
            RoomMessage::RemoveBot { seat: target } => self.decide_remove_bot(participant, target),
            RoomMessage::Review { deal } => self.decide_review(conn, seat, deal),
            RoomMessage::Nudge => self.decide_nudge(seat, at.now),
            RoomMessage::Reading { reading } => self.decide_reading(seat, reading),
            RoomMessage::Replay { deal } => self.decide_replay(conn, seat, deal),
            RoomMessage::ShareLink => {
                if seat.is_none() && !self.options.public_replays {
                    return Err(ErrorCode::ReplayUnavailable);
                }
                let key = secrets::share_key(&self.master);
                let message = ServerMessage::ShareLink { room: self.code.to_string(), key };
                Ok(Decision::effect(Effect::Send { conn, message: Box::new(message) }))
            }
            RoomMessage::DeleteSeries { agree } => {
                let Some(p) = participant.filter(|&p| self.may_vote_to_delete(p, seat.is_some())) else {
                    return Err(ErrorCode::NotSeated);
                };
                let mut decision = Decision::default();
                if self.delete_votes.contains(&p) != agree {
                    decision.changes.push(Change::Record(Record::DeleteVote { participant: p, agree }));
                }
                // Withdrawing leaves a seated person who does not agree.
                if agree && self.everyone_agrees_to_delete(Some(p)) {
                    decision.effects.push(Effect::Delete);
                }
                Ok(decision)
            }
            RoomMessage::Rematch => self.decide_rematch(participant),
            RoomMessage::Query { query } => {
                let seat = seat.ok_or(ErrorCode::NotSeated)?;
                let series = self.series.as_ref().ok_or(ErrorCode::RoomNotStarted)?;
                // A question is the game's own; a game that takes none reads none.
                let query = GameQuery::from_json(series.game(), query).map_err(|_| RuleError::WrongGame)?;
                let answer = series.query(seat, &query).map_err(ErrorCode::Rule)?;
                Ok(Decision::effect(Effect::Send { conn, message: Box::new(answer.into()) }))
            }
        }
    }

    /// A chat line, within the connection's allowance ([`CHAT_BURST`] lines, refilled over
    /// [`CHAT_WINDOW`]).
    fn decide_chat(
        &self,
        conn: ConnId,
        participant: Option<u32>,
        seat: Option<fipsen_rules::Seat>,
        text: &str,
        at: At,
    ) -> Result<Decision, ErrorCode> {
        let text = clean_text(text);
        if text.is_empty() {
            return Err(ErrorCode::ChatEmpty);
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(ErrorCode::ChatTooLong);
        }
        let viewer = self.viewers.get(&conn).ok_or(ErrorCode::NotInRoom)?;
        let refill = at.now.duration_since(viewer.chat_refill).as_secs_f64() / CHAT_WINDOW.as_secs_f64();
        let tokens = (viewer.chat_tokens + refill * CHAT_BURST).min(CHAT_BURST);
        if tokens < 1.0 {
            return Err(ErrorCode::RateLimited);
        }
        let role = if participant.is_some() { Role::Player } else { Role::Spectator };
        let line = ChatLine { from: viewer.name.clone(), seat, role, text, at: at.unix_ms };
        Ok(Decision {
            changes: vec![
                Change::Record(Record::Chat { line }),
                Change::Passing(Passing::ChatSpent { conn, tokens: tokens - 1.0 }),
            ],
            effects: Vec::new(),
        })
    }
}
