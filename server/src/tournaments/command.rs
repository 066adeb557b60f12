//! What a tournament task is told ([`Command`]) through its handle ([`TournamentHandle`]), and
//! why a request may be refused ([`Refusal`]): the links a connection or the relay holds to it.

use std::net::IpAddr;
use std::sync::Arc;

use fipsen_protocol::{ErrorCode, ServerMessage, TournamentSummary};
use fipsen_tournament::{DealResult, EntrantId, TournamentError};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use crate::lease::RoomLease;
use crate::room::{ConnId, ConnLink};

/// Why a request to a tournament was refused: a server code, or the tournament crate's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A server code.
    Code(ErrorCode),
    /// The tournament crate's refusal.
    Tournament(TournamentError),
}

impl Refusal {
    /// The error frame.
    pub fn message(&self) -> ServerMessage {
        match self {
            Refusal::Code(code) => ServerMessage::error(*code, None),
            Refusal::Tournament(error) => ServerMessage::tournament_error(error),
        }
    }

    /// The stable code, for metrics.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Code(code) => code.code(),
            Refusal::Tournament(error) => error.code(),
        }
    }
}

impl From<ErrorCode> for Refusal {
    fn from(code: ErrorCode) -> Self {
        Refusal::Code(code)
    }
}

impl From<TournamentError> for Refusal {
    fn from(error: TournamentError) -> Self {
        Refusal::Tournament(error)
    }
}

/// What only the organiser may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum OrganiserAction {
    /// Remove an entrant before the start.
    Remove(EntrantId),
    /// Close registration.
    Close,
    /// Start round 1.
    Start {
        /// Add the fewest bots that seat the entrants.
        fill_with_bots: bool,
    },
    /// Start the next round.
    NextRound,
}

/// What a tournament task is told. Every answer goes to the connection's own queue, in order.
#[derive(Debug)]
pub enum Command {
    /// `peek_tournament`: the state, once.
    Peek {
        /// The connection.
        link: ConnLink,
    },
    /// `watch_tournament`: the state now and at every change. Answered `true` once watching.
    Watch {
        /// The connection.
        link: ConnLink,
        /// The organiser's or an entrant's token.
        token: Option<String>,
        /// Whether the connection watches now.
        reply: oneshot::Sender<bool>,
    },
    /// The connection no longer watches.
    Unwatch {
        /// The connection.
        conn: ConnId,
    },
    /// `register`. Answered `true` once registered (and watching).
    Register {
        /// The connection.
        link: ConnLink,
        /// Its address (for the registrations one address may make).
        peer: IpAddr,
        /// The name.
        name: String,
        /// Whether the connection registered (and watches now).
        reply: oneshot::Sender<bool>,
    },
    /// An organiser's request.
    Organise {
        /// The connection.
        link: ConnLink,
        /// The organiser's token.
        token: String,
        /// What he asks.
        action: OrganiserAction,
    },
    /// `tournament_results`: the standings, or one round's tables.
    Results {
        /// The connection.
        link: ConnLink,
        /// The round whose tables are asked for.
        round: Option<u32>,
    },
    /// A table's deals.
    Report {
        /// Every deal that counted at one table.
        results: Vec<DealResult>,
    },
}

/// A tournament task's handle.
#[derive(Debug, Clone)]
pub struct TournamentHandle {
    /// Which task.
    pub instance: u64,
    /// The link code.
    pub id: Arc<str>,
    /// When it was created (milliseconds since 1970): the public list is newest first.
    pub created_at: u64,
    /// The command queue.
    pub tx: mpsc::Sender<Command>,
    /// Its entry in the public list, while it is listed and not over.
    pub listing: watch::Receiver<Option<TournamentSummary>>,
    /// In cluster mode, the lease it runs under here (or, for a tournament relayed to another
    /// server, that server's lease).
    pub lease: Option<Arc<RoomLease>>,
}
