//! Why the server refused a message: a stable code for programs and a sentence for people.
//!
//! Codes are `area/reason` strings and never change meaning once published. The rules crate's
//! own codes ([`RuleError::code`]) pass through unchanged, so a client sees `turn/not_yours` or
//! `play/must_follow_suit` exactly as the rules name them.

use std::fmt;

use fipsen_rules::{Bid, Card, RuleError, Seat, Suit};

/// A refusal. Turned into a [`ServerMessage::Error`](crate::ServerMessage::Error) frame with
/// [`ErrorCode::code`] and a sentence (usually [`ErrorCode`]'s `Display`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The frame is not a JSON object of the expected shape.
    Malformed,
    /// The `type` field names no message of this protocol.
    UnknownType,
    /// The client speaks a protocol version this server does not.
    Version,
    /// The frame is larger than [`MAX_MESSAGE_BYTES`](crate::MAX_MESSAGE_BYTES).
    TooLarge,
    /// A message other than `hello` came before the handshake.
    HandshakeRequired,
    /// A second `hello` on the same connection.
    AlreadyGreeted,
    /// No room has this invite code (or the token belongs to no room).
    RoomNotFound,
    /// The room is stored, but a record of it cannot be read by this server (written by a newer
    /// version, or damaged): it stays closed rather than come back different.
    RoomBroken,
    /// Every seat is taken.
    RoomFull,
    /// The series has started: seats can no longer be taken or left freely.
    RoomStarted,
    /// The series has not started yet.
    RoomNotStarted,
    /// Only the host may do this.
    NotHost,
    /// The room does not admit spectators.
    NoSpectators,
    /// As many spectators as the server lets one room have are watching already.
    AudienceFull,
    /// This connection is already in a room (send `leave_room` first).
    AlreadyInRoom,
    /// This connection is in no room yet.
    NotInRoom,
    /// The series can only start when every seat is taken.
    SeatsNotFull,
    /// Another player sits there.
    SeatTaken,
    /// There is no such seat at this table.
    SeatInvalid,
    /// Only a seated player may do this.
    NotSeated,
    /// The seat token is unknown for this room.
    TokenInvalid,
    /// The action was chosen against an older state of the game than the current one.
    ActionStale,
    /// The action id is lower than one already used and not among the recent ones.
    ActionIdReused,
    /// An action names one card twice (a discard of the same card two times).
    CardNamedTwice,
    /// Too many messages of this kind in a short time.
    RateLimited,
    /// A chat line longer than [`MAX_CHAT_CHARS`](crate::MAX_CHAT_CHARS).
    ChatTooLong,
    /// An empty chat line.
    ChatEmpty,
    /// A player name that is empty or too long.
    NameInvalid,
    /// A rule set with an option out of range.
    RulesInvalid,
    /// Room options out of range.
    OptionsInvalid,
    /// The server is at its connection limit.
    ServerBusy,
    /// The server could not store the action; nothing was changed.
    Storage,
    /// The server is shutting down.
    ShuttingDown,
    /// Bots are added and removed only before the series or between deals.
    BotMidDeal,
    /// No bot sits at that seat.
    NotABot,
    /// There is no finished deal of yours to review (wait until the deal is over).
    ReviewUnavailable,
    /// The server is computing too many reviews at once.
    ReviewBusy,
    /// A bot plays for this seat until the trick in progress is over.
    BotStandingIn,
    /// A nudge came too early: the turn has not lasted 15 s, or the last nudge in the room was
    /// less than 30 s ago.
    NudgeTooSoon,
    /// Nobody is to be nudged: no turn is waiting for another person.
    NudgeNobody,
    /// Too many rooms were created from this connection or this address in a short time.
    TooManyRooms,
    /// No such finished deal to replay: the deal is still being played (or not yet dealt), or
    /// the asker may not see the room's replays (spectators only where the room makes them
    /// public).
    ReplayUnavailable,
    /// No tournament has this link code.
    TournamentNotFound,
    /// Only the tournament's organiser may do this (the token is not the organiser's).
    NotOrganiser,
    /// The token belongs to neither the organiser nor an entrant of this tournament.
    TournamentTokenInvalid,
    /// A tournament table is seated by its tournament: its seats cannot be taken, left or given
    /// to bots, and newcomers may only watch.
    TournamentTable,
    /// Too many tournaments were created from this connection or this address in a short time.
    TooManyTournaments,
    /// Too many players were registered for this tournament from this address in a short time.
    TooManyRegistrations,
    /// No series with that room and key: the room does not exist, or the key is neither one
    /// of its seat tokens nor its share key.
    SeriesNotFound,
    /// Playing again is offered by the host, once, when the series is over (never at a
    /// tournament table).
    RematchUnavailable,
    /// A `join_room`'s `key` is not 16 to 64 characters of `A`–`Z`, `a`–`z`, `0`–`9`, `-`
    /// and `_`.
    JoinKeyInvalid,
    /// The seat is held by a connection whose request came after this one: this older
    /// `resume` (late, after the client had given up on it) does not take the seat from it.
    Superseded,
    /// The rules refuse the action; the code is the rules crate's own.
    Rule(RuleError),
}

impl ErrorCode {
    /// Every code that is not a rules code, in documentation order.
    pub const SERVER: [ErrorCode; 52] = [
        ErrorCode::Malformed,
        ErrorCode::UnknownType,
        ErrorCode::Version,
        ErrorCode::TooLarge,
        ErrorCode::HandshakeRequired,
        ErrorCode::AlreadyGreeted,
        ErrorCode::RoomNotFound,
        ErrorCode::RoomBroken,
        ErrorCode::RoomFull,
        ErrorCode::RoomStarted,
        ErrorCode::RoomNotStarted,
        ErrorCode::NotHost,
        ErrorCode::NoSpectators,
        ErrorCode::AudienceFull,
        ErrorCode::AlreadyInRoom,
        ErrorCode::NotInRoom,
        ErrorCode::SeatsNotFull,
        ErrorCode::SeatTaken,
        ErrorCode::SeatInvalid,
        ErrorCode::NotSeated,
        ErrorCode::TokenInvalid,
        ErrorCode::ActionStale,
        ErrorCode::ActionIdReused,
        ErrorCode::CardNamedTwice,
        ErrorCode::RateLimited,
        ErrorCode::ChatTooLong,
        ErrorCode::ChatEmpty,
        ErrorCode::NameInvalid,
        ErrorCode::RulesInvalid,
        ErrorCode::OptionsInvalid,
        ErrorCode::ServerBusy,
        ErrorCode::Storage,
        ErrorCode::ShuttingDown,
        ErrorCode::BotMidDeal,
        ErrorCode::NotABot,
        ErrorCode::ReviewUnavailable,
        ErrorCode::ReviewBusy,
        ErrorCode::BotStandingIn,
        ErrorCode::NudgeTooSoon,
        ErrorCode::NudgeNobody,
        ErrorCode::TooManyRooms,
        ErrorCode::ReplayUnavailable,
        ErrorCode::TournamentNotFound,
        ErrorCode::NotOrganiser,
        ErrorCode::TournamentTokenInvalid,
        ErrorCode::TournamentTable,
        ErrorCode::TooManyTournaments,
        ErrorCode::TooManyRegistrations,
        ErrorCode::SeriesNotFound,
        ErrorCode::RematchUnavailable,
        ErrorCode::JoinKeyInvalid,
        ErrorCode::Superseded,
    ];

    /// The stable code, e.g. `room/not_found` or (from the rules) `turn/not_yours`.
    pub const fn code(&self) -> &'static str {
        match self {
            ErrorCode::Malformed => "proto/malformed",
            ErrorCode::UnknownType => "proto/unknown_type",
            ErrorCode::Version => "proto/version",
            ErrorCode::TooLarge => "proto/too_large",
            ErrorCode::HandshakeRequired => "proto/handshake_required",
            ErrorCode::AlreadyGreeted => "proto/already_greeted",
            ErrorCode::RoomNotFound => "room/not_found",
            ErrorCode::RoomBroken => "room/broken",
            ErrorCode::RoomFull => "room/full",
            ErrorCode::RoomStarted => "room/started",
            ErrorCode::RoomNotStarted => "room/not_started",
            ErrorCode::NotHost => "room/not_host",
            ErrorCode::NoSpectators => "room/no_spectators",
            ErrorCode::AudienceFull => "room/full_audience",
            ErrorCode::AlreadyInRoom => "room/already_in",
            ErrorCode::NotInRoom => "room/not_in",
            ErrorCode::SeatsNotFull => "room/seats_not_full",
            ErrorCode::SeatTaken => "seat/taken",
            ErrorCode::SeatInvalid => "seat/invalid",
            ErrorCode::NotSeated => "seat/not_seated",
            ErrorCode::TokenInvalid => "token/invalid",
            ErrorCode::ActionStale => "action/stale",
            ErrorCode::ActionIdReused => "action/id_reused",
            ErrorCode::CardNamedTwice => "card/named_twice",
            ErrorCode::RateLimited => "rate/limited",
            ErrorCode::ChatTooLong => "chat/too_long",
            ErrorCode::ChatEmpty => "chat/empty",
            ErrorCode::NameInvalid => "name/invalid",
            ErrorCode::RulesInvalid => "rules/invalid",
            ErrorCode::OptionsInvalid => "options/invalid",
            ErrorCode::ServerBusy => "server/busy",
            ErrorCode::Storage => "server/storage",
            ErrorCode::ShuttingDown => "server/shutting_down",
            ErrorCode::BotMidDeal => "bot/mid_deal",
            ErrorCode::NotABot => "bot/not_a_bot",
            ErrorCode::ReviewUnavailable => "review/unavailable",
            ErrorCode::ReviewBusy => "review/busy",
            ErrorCode::BotStandingIn => "bot/standing_in",
            ErrorCode::NudgeTooSoon => "nudge/too_soon",
            ErrorCode::NudgeNobody => "nudge/nobody",
            ErrorCode::TooManyRooms => "room/too_many",
            ErrorCode::ReplayUnavailable => "replay/unavailable",
            ErrorCode::TournamentNotFound => "tournament/not_found",
            ErrorCode::NotOrganiser => "tournament/not_organiser",
            ErrorCode::TournamentTokenInvalid => "tournament/token_invalid",
            ErrorCode::TournamentTable => "room/tournament_table",
            ErrorCode::TooManyTournaments => "tournament/too_many",
            ErrorCode::TooManyRegistrations => "tournament/too_many_registrations",
            ErrorCode::SeriesNotFound => "series/not_found",
            ErrorCode::RematchUnavailable => "rematch/unavailable",
            ErrorCode::JoinKeyInvalid => "join/key_invalid",
            ErrorCode::Superseded => "token/superseded",
            ErrorCode::Rule(rule) => rule.code(),
        }
    }

    /// Every code a client may receive: the server's own, then every rules code, then every
    /// code of the tournament crate.
    pub fn all_codes() -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = ErrorCode::SERVER.iter().map(ErrorCode::code).collect();
        for rule in every_rule_error() {
            if !codes.contains(&rule.code()) {
                codes.push(rule.code());
            }
        }
        for error in crate::tournament::every_tournament_error() {
            if !codes.contains(&error.code()) {
                codes.push(error.code());
            }
        }
        codes
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sentence = match self {
            ErrorCode::Malformed => "the message is not a JSON object of the expected shape",
            ErrorCode::UnknownType => "this server knows no message of that type",
            ErrorCode::Version => "this server does not speak that protocol version",
            ErrorCode::TooLarge => "the message is too large",
            ErrorCode::HandshakeRequired => "say hello first",
            ErrorCode::AlreadyGreeted => "hello was already said on this connection",
            ErrorCode::RoomNotFound => "there is no room with that invite code",
            ErrorCode::RoomBroken => "this room's stored history cannot be read by this server; it stays closed",
            ErrorCode::RoomFull => "every seat at this table is taken",
            ErrorCode::RoomStarted => "the series has started",
            ErrorCode::RoomNotStarted => "the series has not started yet",
            ErrorCode::NotHost => "only the host may do this",
            ErrorCode::NoSpectators => "this room does not admit spectators",
            ErrorCode::AudienceFull => "as many people as this table can have are watching it already: try again later",
            ErrorCode::AlreadyInRoom => "you are already in a room on this connection",
            ErrorCode::NotInRoom => "join a room first",
            ErrorCode::SeatsNotFull => "the series starts when every seat is taken",
            ErrorCode::SeatTaken => "that seat is taken",
            ErrorCode::SeatInvalid => "there is no such seat at this table",
            ErrorCode::NotSeated => "only a seated player may do this",
            ErrorCode::TokenInvalid => "that seat token is not valid for this room",
            ErrorCode::ActionStale => "the game has moved on since you chose this action",
            ErrorCode::ActionIdReused => "that action id was already used",
            ErrorCode::CardNamedTwice => "the action names a card twice",
            ErrorCode::RateLimited => "too many messages: slow down",
            ErrorCode::ChatTooLong => "that chat line is too long",
            ErrorCode::ChatEmpty => "that chat line is empty",
            ErrorCode::NameInvalid => "a name has 1 to 32 characters",
            ErrorCode::RulesInvalid => "the rule set has an option out of range",
            ErrorCode::OptionsInvalid => "a room option is out of range",
            ErrorCode::ServerBusy => "the server is busy: try again later",
            ErrorCode::Storage => "the server could not store this; nothing was changed",
            ErrorCode::ShuttingDown => "the server is restarting: reconnect in a moment",
            ErrorCode::BotMidDeal => "bots join or leave only before the series or between deals",
            ErrorCode::NotABot => "no bot sits at that seat",
            ErrorCode::ReviewUnavailable => "a review is ready once your deal is over",
            ErrorCode::ReviewBusy => "the server is busy with other reviews: try again in a moment",
            ErrorCode::BotStandingIn => "a bot plays for you until the trick in progress is over",
            ErrorCode::NudgeTooSoon => "give the player a little more time before nudging",
            ErrorCode::NudgeNobody => "nobody is keeping the table waiting",
            ErrorCode::TooManyRooms => "too many rooms were opened from here: try again later",
            ErrorCode::ReplayUnavailable => {
                "a deal can be replayed once it is over, by the room's players (and by anyone where the room makes its replays public)"
            }
            ErrorCode::TournamentNotFound => "there is no tournament with that link",
            ErrorCode::NotOrganiser => "only the tournament's organiser may do this",
            ErrorCode::TournamentTokenInvalid => "that token belongs to nobody in this tournament",
            ErrorCode::TournamentTable => {
                "the tournament seats this table: its seats cannot change, and newcomers may only watch"
            }
            ErrorCode::TooManyTournaments => "too many tournaments were created from here: try again later",
            ErrorCode::TooManyRegistrations => {
                "too many players were registered for this tournament from here just now: try again in a minute"
            }
            ErrorCode::SeriesNotFound => "no series with that room and key",
            ErrorCode::RematchUnavailable => "the host may offer to play again once, when the series is over",
            ErrorCode::JoinKeyInvalid => "a join key has 16 to 64 characters of A-Z, a-z, 0-9, - and _",
            ErrorCode::Superseded => "a newer connection holds this seat: this older request was not carried out",
            ErrorCode::Rule(rule) => return fmt::Display::fmt(rule, f),
        };
        f.write_str(sentence)
    }
}

impl From<RuleError> for ErrorCode {
    fn from(rule: RuleError) -> Self {
        ErrorCode::Rule(rule)
    }
}

/// One value of every [`RuleError`] variant, so that every rules code is listed (and the
/// schema names them all). The match in `variant_number` makes the compiler flag a new
/// variant of the rules crate.
pub fn every_rule_error() -> Vec<RuleError> {
    let card = Card::DIAMOND_SEVEN;
    let all = vec![
        RuleError::NoSuchSeat(Seat(0)),
        RuleError::DealOver,
        RuleError::SeriesOver,
        RuleError::DealNotOver,
        RuleError::NotYourTurn,
        RuleError::WrongPhase("phase"),
        RuleError::BidInvalid,
        RuleError::BidBelowMinimum { min: 2 },
        RuleError::BidTooLow { standing: Bid::tricks(2) },
        RuleError::KiekerNotAllowed,
        RuleError::HoldNotAllowed,
        RuleError::HandRequired,
        RuleError::KiekerNoHand,
        RuleError::DiscardCount { expected: 2 },
        RuleError::NotInHand { card },
        RuleError::RutenRequired,
        RuleError::MustFollowSuit { suit: Suit::Clubs },
        RuleError::NoSiebenerFips,
        RuleError::SiebenerFipsTooLate,
        RuleError::GiveUpNotAllowed,
        RuleError::NoSuchBid,
        RuleError::BidNotHigher { standing: bid(r#"{"kind": "kieker"}"#) },
        RuleError::FoldNotAllowed,
        RuleError::WrongGame,
        RuleError::UnknownBid,
        RuleError::MustBidHigher { standing: bid(r#"{"kind": "dutt"}"#) },
        RuleError::RutenasRequired,
        RuleError::RutenMustBeBid,
        RuleError::ForehandMustBid,
        RuleError::MustHead,
        RuleError::MustTrump { trumps: Suit::Hearts },
        RuleError::MustLeadTrump { trumps: Suit::Hearts },
        RuleError::MustLeadDaus { card },
        RuleError::ExchangeTooMany { max: 3 },
        RuleError::RobNotAllowed,
        RuleError::ShoveNotAllowed,
        RuleError::PassNotAllowed,
        RuleError::DropOutNotAllowed,
        RuleError::MoveTooLarge,
        RuleError::NoGroup,
        RuleError::UnknownPile,
        RuleError::PileUsedTwice,
        RuleError::HandCardMisplaced,
        RuleError::GroupTooLarge { max: 4, group: 0 },
        RuleError::NoTablePile,
        RuleError::OperatorNotAllowed { op: '*' },
        RuleError::InvalidArithmetic { group: 0, op: '-', left: 2, right: 3 },
        RuleError::WrongValue { group: 0, value: 9, target: 10 },
        RuleError::NoCardForValue { value: 9 },
        RuleError::OwnBuildingValueChange,
        RuleError::BrokenPromise { value: 6 },
        RuleError::SelectionTooLarge,
    ];
    debug_assert!(all.iter().enumerate().all(|(i, e)| variant_number(e) == i));
    all
}

/// A bid of whichever game's kind of bid an error carries, from its JSON (the listing needs one
/// of each kind, and names no game).
fn bid<B: serde::de::DeserializeOwned>(json: &str) -> B {
    serde_json::from_str(json).expect("the bid is one of the game's")
}

/// The position of a variant in [`every_rule_error`]; exhaustive on purpose.
const fn variant_number(error: &RuleError) -> usize {
    match error {
        RuleError::NoSuchSeat(_) => 0,
        RuleError::DealOver => 1,
        RuleError::SeriesOver => 2,
        RuleError::DealNotOver => 3,
        RuleError::NotYourTurn => 4,
        RuleError::WrongPhase(_) => 5,
        RuleError::BidInvalid => 6,
        RuleError::BidBelowMinimum { .. } => 7,
        RuleError::BidTooLow { .. } => 8,
        RuleError::KiekerNotAllowed => 9,
        RuleError::HoldNotAllowed => 10,
        RuleError::HandRequired => 11,
        RuleError::KiekerNoHand => 12,
        RuleError::DiscardCount { .. } => 13,
        RuleError::NotInHand { .. } => 14,
        RuleError::RutenRequired => 15,
        RuleError::MustFollowSuit { .. } => 16,
        RuleError::NoSiebenerFips => 17,
        RuleError::SiebenerFipsTooLate => 18,
        RuleError::GiveUpNotAllowed => 19,
        RuleError::NoSuchBid => 20,
        RuleError::BidNotHigher { .. } => 21,
        RuleError::FoldNotAllowed => 22,
        RuleError::WrongGame => 23,
        RuleError::UnknownBid => 24,
        RuleError::MustBidHigher { .. } => 25,
        RuleError::RutenasRequired => 26,
        RuleError::RutenMustBeBid => 27,
        RuleError::ForehandMustBid => 28,
        RuleError::MustHead => 29,
        RuleError::MustTrump { .. } => 30,
        RuleError::MustLeadTrump { .. } => 31,
        RuleError::MustLeadDaus { .. } => 32,
        RuleError::ExchangeTooMany { .. } => 33,
        RuleError::RobNotAllowed => 34,
        RuleError::ShoveNotAllowed => 35,
        RuleError::PassNotAllowed => 36,
        RuleError::DropOutNotAllowed => 37,
        RuleError::MoveTooLarge => 38,
        RuleError::NoGroup => 39,
        RuleError::UnknownPile => 40,
        RuleError::PileUsedTwice => 41,
        RuleError::HandCardMisplaced => 42,
        RuleError::GroupTooLarge { .. } => 43,
        RuleError::NoTablePile => 44,
        RuleError::OperatorNotAllowed { .. } => 45,
        RuleError::InvalidArithmetic { .. } => 46,
        RuleError::WrongValue { .. } => 47,
        RuleError::NoCardForValue { .. } => 48,
        RuleError::OwnBuildingValueChange => 49,
        RuleError::BrokenPromise { .. } => 50,
        RuleError::SelectionTooLarge => 51,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_shaped_area_slash_reason() {
        let codes = ErrorCode::all_codes();
        let tournament = crate::tournament::every_tournament_error();
        assert_eq!(codes.len(), ErrorCode::SERVER.len() + every_rule_error().len() + tournament.len());
        for (i, code) in codes.iter().enumerate() {
            assert!(!codes[..i].contains(code), "{code} twice");
            let (area, reason) = code.split_once('/').expect("area/reason");
            assert!(!area.is_empty() && !reason.is_empty());
            assert!(code.chars().all(|c| c.is_ascii_lowercase() || c == '/' || c == '_'), "{code}");
        }
    }

    #[test]
    fn rules_codes_pass_through_with_their_sentence() {
        let code = ErrorCode::from(RuleError::NotYourTurn);
        assert_eq!(code.code(), "turn/not_yours");
        assert_eq!(code.to_string(), "it is not your turn");
        assert!(ErrorCode::all_codes().contains(&"play/must_follow_suit"));
        assert!(ErrorCode::all_codes().contains(&"bid/too_low"));
        for (i, e) in every_rule_error().iter().enumerate() {
            assert_eq!(variant_number(e), i);
        }
    }

    #[test]
    fn tournament_codes_are_listed_and_their_frames_carry_code_and_sentence() {
        let codes = ErrorCode::all_codes();
        for error in crate::tournament::every_tournament_error() {
            assert!(codes.contains(&error.code()), "{}", error.code());
        }
        let frame = crate::ServerMessage::tournament_error(&fipsen_tournament::TournamentError::Closed).to_json();
        assert_eq!(
            frame,
            r#"{"type":"error","id":null,"code":"tournament/closed","message":"registration is closed"}"#
        );
        assert_eq!(ErrorCode::TournamentTable.code(), "room/tournament_table");
    }
}
