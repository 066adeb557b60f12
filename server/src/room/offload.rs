//! Work done for the room off its task: reviews and replays (with the analysis of the deal's
//! play, [`crate::analysis`]) rebuilt on a background thread ([`crate::background`]) in the
//! asking address's turn ([`crate::fair`]), and the deletion of the series in storage.

use std::net::IpAddr;

use fipsen_bots::Level;
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{ErrorCode, ServerMessage};
use fipsen_rules::Seat;
use tracing::{info, warn};

use super::core::Command;
use super::link::ConnId;
use super::record::Record;
use super::shell::Room;
use crate::fair::{Full, Place};
use crate::storage::RoomMeta;

impl Room {
    /// Starts computing the review of `seat`'s hand in finished deal `deal` (`review` or
    /// `decisions`, as the game's bots review it); the answer goes to the connection when it is
    /// ready, if it is still in the room.
    pub(super) fn review(
        &mut self,
        conn: ConnId,
        seat: Seat,
        deal: u32,
        at_hand: Option<Box<FinishedDeal>>,
        seed: u64,
    ) -> Result<(), ErrorCode> {
        let place = self.place(conn).map_err(|_| ErrorCode::ReviewBusy)?;
        let (code, answer, storage) = (self.core.code().clone(), self.answers_tx(), self.env.storage.clone());
        tokio::spawn(async move {
            let turn = place.turn().await;
            // The deal's index rows and records alone (the deal is checked as it is dealt again).
            let stored = match at_hand {
                Some(_) => None,
                None => crate::room::series_index::read(&storage, &code, deal, 1).await.ok().flatten(),
            };
            let computed = crate::background::run(move || {
                let _turn = turn;
                let finished = at_hand
                    .map(|d| *d)
                    .or_else(|| stored.and_then(|s| crate::room::replay::finished_deal(&s, deal).ok().flatten()))?;
                // The review of the bidding and play has its own shape; the other games' bots
                // review the decisions.
                if FinishedDeal::reviewed(finished.game()) {
                    finished.review(seat, Level::Strong, seed).map(|review| ServerMessage::Review { deal, review })
                } else {
                    finished
                        .decisions(seat, Level::Strong, seed)
                        .map(|review| ServerMessage::Decisions { deal, review })
                }
            })
            .await;
            let message = match computed {
                Ok(Some(message)) => message,
                _ => {
                    warn!(room = %code, "a review could not be computed");
                    ServerMessage::error(ErrorCode::ReviewUnavailable, None)
                }
            };
            // The room may have closed meanwhile: then nobody is left to answer.
            let _ = answer.send((conn, Box::new(message)));
        });
        Ok(())
    }

    /// Starts rebuilding finished deal `deal` from storage, seen from `seat`; the answer goes
    /// to the connection when it is ready, if it is still in the room.
    pub(super) fn replay(&mut self, conn: ConnId, seat: Option<Seat>, deal: u32) -> Result<(), ErrorCode> {
        let place = self.place(conn).map_err(|_| ErrorCode::ServerBusy)?;
        let (code, answer, storage) = (self.core.code().clone(), self.answers_tx(), self.env.storage.clone());
        tokio::spawn(async move {
            let turn = place.turn().await;
            // The deal's index rows and records alone (the deal is checked as it is dealt again).
            let message = match crate::room::series_index::read(&storage, &code, deal, 1).await {
                Ok(Some(stored)) => {
                    let built = crate::background::run(move || {
                        let _turn = turn;
                        crate::room::replay::replay_deal(&stored, deal, seat)
                    })
                    .await;
                    match built {
                        Ok(Ok(Some(replay))) => ServerMessage::Replay { replay },
                        _ => ServerMessage::error(ErrorCode::ReplayUnavailable, None),
                    }
                }
                Ok(None) | Err(crate::room::series_index::Unread::Damaged(_)) => {
                    ServerMessage::error(ErrorCode::ReplayUnavailable, None)
                }
                Err(crate::room::series_index::Unread::Storage(e)) => {
                    warn!(room = %code, error = %e, "a replay could not be read from storage");
                    ServerMessage::error(ErrorCode::Storage, None)
                }
            };
            // The room may have closed meanwhile: then nobody is left to answer.
            let _ = answer.send((conn, Box::new(message)));
        });
        Ok(())
    }

    /// A place in the reviews' queue for a job of `conn`, under its address ([`crate::fair`]):
    /// addresses take turns, so that a flood of requests from a few delays the others by at
    /// most one job each.
    fn place(&self, conn: ConnId) -> Result<Place, Full> {
        let addr = self.members.get(&conn).map_or(IpAddr::from([0, 0, 0, 0]), |m| m.link.addr);
        self.env.reviews.enter(addr, self.core.code())
    }

    /// Opens the room to play again in, seated by `records`, and tells the core its code.
    pub(super) async fn open_rematch(&mut self, records: Vec<Record>) -> Result<(), ErrorCode> {
        let code = self.core.code().clone();
        let template = RoomMeta {
            code: String::new(),
            created_at: 0,
            title: self.core.title().to_string(),
            rules: self.core.rules().clone(),
            options: self.core.options().clone(),
            master: fipsen_rules::Seed([0; 32]),
            tournament: None,
        };
        let rematch = self.env.host.clone().open_rematch(template, records).await?;
        info!(room = %code, %rematch, "the host offered to play again");
        Box::pin(self.execute(Command::Rematched { room: rematch.to_string() }, None)).await
    }

    /// Deletes the room and its series from storage for good, tells everyone in it, and ends
    /// the room's task. If storage fails, nothing is deleted and the room goes on.
    pub(super) async fn delete(&mut self) -> Result<(), ErrorCode> {
        let code = self.core.code().clone();
        if let Err(e) = self.env.storage.delete_room_under(self.fence(), code.clone()).await {
            warn!(room = %code, error = %e, "cannot delete the room");
            return Err(ErrorCode::Storage);
        }
        info!(room = %code, "deleted by its players' agreement");
        crate::analysis::forget(&code);
        let message = ServerMessage::Deleted { room: code.to_string() };
        let members: Vec<ConnId> = self.members.keys().copied().collect();
        for conn in members {
            self.send_to(conn, &message);
        }
        self.members.clear();
        self.mark_deleted();
        Ok(())
    }
}
