//! WebSocket close codes the server uses, and what a client should do on each.

use serde::{Deserialize, Serialize};

/// Why the server closed a connection. The number goes in the WebSocket close frame; the
/// reason text is [`CloseCode::reason`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CloseCode {
    /// 1000: the client asked to leave, or the room was closed.
    Normal,
    /// 1002: the client broke the WebSocket protocol (an unmasked frame, an unknown opcode, …).
    ProtocolError,
    /// 1007: a text frame that is not valid UTF-8.
    InvalidData,
    /// 1008: the client broke a policy (sent messages faster than the rate limit, or a disallowed Origin).
    Policy,
    /// 1009: a frame over the message size limit.
    TooBig,
    /// 1011: an internal error on the server.
    Internal,
    /// 1012: the server is restarting. Reconnect (with `resume`) after a short pause.
    Restart,
    /// 1013: the server is at its connection limit. Try again later.
    TryAgainLater,
    /// 4001: the `hello` named a protocol version this server does not speak.
    UnsupportedVersion,
    /// 4002: no `hello` arrived in time after the connection opened.
    HandshakeTimeout,
    /// 4003: another connection resumed the same seat token; this one is replaced.
    Replaced,
    /// 4004: the client did not read what the server sent fast enough, or answered no
    /// WebSocket ping for a long time.
    TooSlow,
    /// 4005: the connection was in no room and sent nothing but pings for the server's idle
    /// timeout.
    Idle,
}

impl CloseCode {
    /// Every close code, in documentation order.
    pub const ALL: [CloseCode; 13] = [
        CloseCode::Normal,
        CloseCode::ProtocolError,
        CloseCode::InvalidData,
        CloseCode::Policy,
        CloseCode::TooBig,
        CloseCode::Internal,
        CloseCode::Restart,
        CloseCode::TryAgainLater,
        CloseCode::UnsupportedVersion,
        CloseCode::HandshakeTimeout,
        CloseCode::Replaced,
        CloseCode::TooSlow,
        CloseCode::Idle,
    ];

    /// The number sent in the close frame.
    pub const fn code(self) -> u16 {
        match self {
            CloseCode::Normal => 1000,
            CloseCode::ProtocolError => 1002,
            CloseCode::InvalidData => 1007,
            CloseCode::Policy => 1008,
            CloseCode::TooBig => 1009,
            CloseCode::Internal => 1011,
            CloseCode::Restart => 1012,
            CloseCode::TryAgainLater => 1013,
            CloseCode::UnsupportedVersion => 4001,
            CloseCode::HandshakeTimeout => 4002,
            CloseCode::Replaced => 4003,
            CloseCode::TooSlow => 4004,
            CloseCode::Idle => 4005,
        }
    }

    /// The close code with this number, if the server uses it.
    pub fn from_code(code: u16) -> Option<CloseCode> {
        CloseCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The short reason sent with the close frame (at most 123 bytes, as WebSocket requires).
    pub const fn reason(self) -> &'static str {
        match self {
            CloseCode::Normal => "goodbye",
            CloseCode::ProtocolError => "websocket protocol error",
            CloseCode::InvalidData => "text frame not valid UTF-8",
            CloseCode::Policy => "too many messages",
            CloseCode::TooBig => "message too large",
            CloseCode::Internal => "internal error",
            CloseCode::Restart => "server restarting: reconnect",
            CloseCode::TryAgainLater => "server full: try again later",
            CloseCode::UnsupportedVersion => "unsupported protocol version",
            CloseCode::HandshakeTimeout => "no hello in time",
            CloseCode::Replaced => "seat resumed on another connection",
            CloseCode::TooSlow => "client too slow to read",
            CloseCode::Idle => "idle: reconnect when needed",
        }
    }

    /// Whether a client should reconnect on its own after this close.
    pub const fn should_reconnect(self) -> bool {
        matches!(self, CloseCode::Restart | CloseCode::TryAgainLater | CloseCode::TooSlow | CloseCode::Internal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_distinct_and_round_trip() {
        for (i, close) in CloseCode::ALL.iter().enumerate() {
            assert_eq!(CloseCode::from_code(close.code()), Some(*close));
            assert!(CloseCode::ALL[..i].iter().all(|c| c.code() != close.code()));
            assert!(close.reason().len() <= 123);
        }
        assert_eq!(CloseCode::from_code(1234), None);
        assert_eq!(CloseCode::Restart.code(), 1012);
        assert!(CloseCode::Restart.should_reconnect());
        assert!(!CloseCode::UnsupportedVersion.should_reconnect());
    }
}
