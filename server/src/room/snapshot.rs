//! What a connection entering the room is sent: the `joined` snapshot, with the events it
//! missed since it last saw the room (or a resync), and the recent chat.

use std::sync::Arc;
use std::time::Instant;

use fipsen_protocol::{ChatLine, Role, SeqEvent, ServerMessage, You};
use fipsen_rules::AnyGame;

use super::link::ConnId;
use super::shell::Room;
use crate::frames::{Base, redact};

/// The most chat a `joined` frame carries, in bytes of its `chat` list as sent: the newest
/// lines that fit.
const CHAT_JOIN_BYTES: usize = 16 * 1024;
/// The most missed events a `joined` frame carries, in bytes of JSON; a longer gap is answered
/// with a snapshot (`resync`) instead.
const MISSED_BYTES: usize = 64 * 1024;
/// The most scoresheet a `joined` frame carries, in bytes of its rows' JSON: the newest rows
/// that fit (at least the last), so that a snapshot of a series of thousands of deals is as
/// small as one of a few hundred. The series page serves the older rows.
pub(crate) const SHEET_JOIN_BYTES: usize = 48 * 1024;

impl Room {
    /// Sends a connection that entered the room its snapshot, and keeps it as the base its
    /// next update patches.
    pub(super) fn admit(&mut self, conn: ConnId, token: Option<String>, last_seq: Option<u64>) {
        let core = &self.core;
        let Some(viewer) = core.viewers().get(&conn) else { return };
        let participant = viewer.participant;
        let seat = core.seat_of_conn(conn);
        let stood_in = seat.is_some_and(|s| core.stood_in().contains(&s));
        let (missed, resync) = match last_seq {
            None => (Vec::new(), false),
            Some(last) if last == core.seq() => (Vec::new(), false),
            Some(last) => match core.events_after(last) {
                Some(events) => {
                    let missed: Vec<SeqEvent> = events.map(|e| redact(e, seat)).collect();
                    // A long gap (a chatty table, a long absence) is answered with the snapshot
                    // alone, so that the frame stays small.
                    let bytes: usize = missed.iter().map(|e| serde_json::to_string(e).map_or(0, |j| j.len())).sum();
                    if bytes > MISSED_BYTES { (Vec::new(), true) } else { (missed, false) }
                }
                None => (Vec::new(), true),
            },
        };
        let you = You {
            participant,
            name: viewer.name.clone(),
            role: if participant.is_some() { Role::Player } else { Role::Spectator },
            seat,
            host: participant == Some(core.host()),
            token,
            last_act_id: participant.and_then(|p| core.last_act_id(p)),
        };
        let room = core.state(Instant::now());
        let base = Base::now(&room, core.series(), seat, !stood_in);
        let first = core.series().map_or(0, first_row_sent);
        let joined = ServerMessage::Joined {
            room,
            you,
            seq: core.seq(),
            game: core.series().map(|s| {
                let mut view = s.view_from_row(seat, first);
                if stood_in {
                    view.clear_prompt();
                }
                view
            }),
            rows_before: u32::try_from(first).unwrap_or(u32::MAX),
            missed,
            resync,
            chat: recent_chat(core.chat().iter()),
        };
        if let Some(member) = self.members.get_mut(&conn) {
            member.base = Arc::new(base);
        }
        self.send_to(conn, &joined);
    }
}

/// The first scoresheet row a snapshot carries: the newest rows whose JSON fits in
/// [`SHEET_JOIN_BYTES`], and the last row whatever its size. Only the rows sent are read.
pub(crate) fn first_row_sent(series: &AnyGame) -> usize {
    let mut first = series.rows();
    let mut bytes = 0usize;
    while first > 0 {
        let row = series.row_json(first - 1).map_or(0, |json| json.len() + 1);
        if bytes + row > SHEET_JOIN_BYTES && first < series.rows() {
            break;
        }
        bytes += row;
        first -= 1;
    }
    first
}

/// The newest chat lines that fit in [`CHAT_JOIN_BYTES`] as sent (the `chat` list's JSON,
/// escapes included), oldest first.
fn recent_chat<'a>(chat: impl DoubleEndedIterator<Item = &'a ChatLine>) -> Vec<ChatLine> {
    // The brackets of the list, and a comma before every line but the first.
    let mut bytes = 1;
    let mut lines: Vec<ChatLine> = chat
        .rev()
        .take_while(|line| {
            bytes += 1 + serde_json::to_string(line).map_or(usize::MAX / 2, |json| json.len());
            bytes <= CHAT_JOIN_BYTES
        })
        .cloned()
        .collect();
    lines.reverse();
    lines
}
