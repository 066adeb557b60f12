//! A player's game actions, and what he may ask about finished deals (reviews, replays).

use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{ErrorCode, ServerMessage};
use fipsen_rules::{RuleError, Seat};

use super::{Core, Decision, Effect};
use crate::room::link::ConnId;
use crate::room::record::Record;

impl Core {
    /// A seated player's action: read as an action of the room's game, acknowledged again if
    /// it was accepted before (a client resending after a lost connection), refused if it was
    /// chosen before the last game event, and checked by the rules.
    pub(super) fn decide_act(
        &self,
        conn: ConnId,
        participant: u32,
        seat: Seat,
        id: u64,
        seq: u64,
        action: serde_json::Value,
    ) -> Result<Decision, ErrorCode> {
        let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
        let action = match fipsen_protocol::read_action(series.game(), action) {
            Ok(action) => action,
            Err((code, message)) => {
                // The sentence names the game and what was wrong (never a card of the game).
                return Ok(Decision::effect(Effect::Refuse { conn, code, id: Some(id), message }));
            }
        };
        if let Some(p) = self.participants.get(participant as usize) {
            if let Some(&(_, acked_seq)) = p.acked.iter().find(|(acked, _)| *acked == id) {
                let message = ServerMessage::Ack { id, seq: acked_seq };
                return Ok(Decision::effect(Effect::Send { conn, message: Box::new(message) }));
            }
            if p.last_act_id.is_some_and(|last| id <= last) {
                return Err(ErrorCode::ActionIdReused);
            }
        }
        if seq < self.last_game_seq {
            return Err(ErrorCode::ActionStale);
        }
        if series.series_over() {
            return Err(ErrorCode::Rule(RuleError::SeriesOver));
        }
        if self.holds[seat.index()].stand_in.is_some() {
            return Err(ErrorCode::BotStandingIn);
        }
        series.check(seat, &action).map_err(ErrorCode::Rule)?;
        Ok(Decision::record(Record::Act { participant, seat, id, action }).with(Effect::Ack { conn, id }))
    }

    /// The review of `seat`'s hand in the last finished deal, or in finished deal `asked`: his
    /// bidding and play, or his decisions, as the game's bots review it
    /// ([`FinishedDeal::reviewed`], [`FinishedDeal::decisions_reviewed`]). Only a seated player
    /// gets one, and only of his own seat.
    pub(super) fn decide_review(
        &self,
        conn: ConnId,
        seat: Option<Seat>,
        asked: Option<u32>,
    ) -> Result<Decision, ErrorCode> {
        let seat = seat.ok_or(ErrorCode::ReviewUnavailable)?;
        let series = self.series.as_ref().ok_or(ErrorCode::ReviewUnavailable)?;
        let current = series.deal_number();
        // The deal just ended is at hand (or kept since the next was dealt); an older one is
        // rebuilt from storage. A deal still being played has no review.
        let at_hand = if series.deal_over() {
            Some((current, FinishedDeal::of(series).ok_or(ErrorCode::ReviewUnavailable)?))
        } else {
            self.previous_deal.clone()
        };
        let deal = asked.or(at_hand.as_ref().map(|(n, _)| *n)).ok_or(ErrorCode::ReviewUnavailable)?;
        let finished = deal >= 1 && (deal < current || (deal == current && series.deal_over()));
        let game = self.rules.game();
        if !finished || !(FinishedDeal::reviewed(game) || FinishedDeal::decisions_reviewed(game)) {
            return Err(ErrorCode::ReviewUnavailable);
        }
        let at_hand = at_hand.filter(|(n, _)| *n == deal).map(|(_, finished)| Box::new(finished));
        let seed = self.bot_seed(u64::from(deal) << 8 | u64::from(seat.0));
        Ok(Decision::effect(Effect::Review { conn, seat, deal, at_hand, seed }))
    }

    /// The replay of a finished deal, for a seated player (or, where the room makes its replays
    /// public, for anyone in it). A deal still being played is refused before anything is read.
    pub(super) fn decide_replay(&self, conn: ConnId, seat: Option<Seat>, deal: u32) -> Result<Decision, ErrorCode> {
        if seat.is_none() && !self.options.public_replays {
            return Err(ErrorCode::ReplayUnavailable);
        }
        let series = self.series.as_ref().ok_or(ErrorCode::ReplayUnavailable)?;
        let current = series.deal_number();
        let finished = deal >= 1 && (deal < current || (deal == current && series.deal_over()));
        if !finished {
            return Err(ErrorCode::ReplayUnavailable);
        }
        Ok(Decision::effect(Effect::Replay { conn, seat, deal }))
    }
}
