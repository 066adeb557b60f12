use super::*;
use fipsen_rules::{Action, Card, Level, Seat};
use fipsen_tournament::{EntrantId, Settings};

use crate::room::{Role, RoomOptions};
use crate::tournament::TournamentTables;

fn act(action: Action) -> Value {
    serde_json::to_value(action).unwrap()
}

/// A tournament of the default game: one format of tables of its default rules.
fn settings() -> Settings {
    let rules = GameRules::default();
    let json = serde_json::json!({"name": "Club", "game": rules.game(), "tables": [{"seats": rules.seats(), "deals": 1,
        "rules": rules}], "max_short_tables": 0, "rounds": 1, "reseating": "random", "duplicate": false,
        "listed": false, "organiser_plays": true});
    serde_json::from_value(json).unwrap()
}

/// One message of every type, in the order of `ClientMessage::TYPES`.
fn examples() -> Vec<ClientMessage> {
    vec![
        ConnectionMessage::Hello { protocol: 1, client: None }.into(),
        ConnectionMessage::CreateRoom {
            name: "A".into(),
            rules: GameRules::default(),
            options: RoomOptions::default(),
        }
        .into(),
        ConnectionMessage::JoinRoom {
            room: "r".into(),
            name: "B".into(),
            role: Role::Spectator,
            token: None,
            key: None,
        }
        .into(),
        ConnectionMessage::Resume { room: "r".into(), token: "t".into(), last_seq: Some(3) }.into(),
        RoomMessage::TakeSeat { seat: Seat(2) }.into(),
        RoomMessage::LeaveSeat.into(),
        RoomMessage::Start.into(),
        RoomMessage::SetPublic { public: true }.into(),
        RoomMessage::Act { id: 1, seq: 2, action: act(Action::Play { card: Card::DIAMOND_SEVEN }) }.into(),
        RoomMessage::NextDeal.into(),
        RoomMessage::Chat { text: "hi".into() }.into(),
        ConnectionMessage::LeaveRoom.into(),
        ConnectionMessage::Lobby { offset: 50 }.into(),
        ConnectionMessage::Peek { room: "r".into() }.into(),
        ConnectionMessage::MyRooms { tokens: vec!["t".into()] }.into(),
        ConnectionMessage::Ping.into(),
        RoomMessage::AddBot { seat: Seat(3), level: Level::Strong }.into(),
        RoomMessage::RemoveBot { seat: Seat(3) }.into(),
        RoomMessage::Review { deal: None }.into(),
        RoomMessage::Nudge.into(),
        RoomMessage::Reading { reading: true }.into(),
        RoomMessage::Replay { deal: 3 }.into(),
        RoomMessage::Query { query: serde_json::json!({"card": "H10", "piles": []}) }.into(),
        TournamentMessage::CreateTournament {
            name: "O".into(),
            settings: settings(),
            tables: Some(TournamentTables::given(RoomOptions::default())),
        }
        .into(),
        TournamentMessage::PeekTournament { tournament: "t".into() }.into(),
        TournamentMessage::WatchTournament { tournament: "t".into(), token: Some("k".into()) }.into(),
        TournamentMessage::UnwatchTournament.into(),
        TournamentMessage::Register { tournament: "t".into(), name: "A".into() }.into(),
        TournamentMessage::RemoveEntrant { tournament: "t".into(), token: "k".into(), entrant: EntrantId(2) }.into(),
        TournamentMessage::CloseRegistration { tournament: "t".into(), token: "k".into() }.into(),
        TournamentMessage::StartTournament { tournament: "t".into(), token: "k".into(), fill_with_bots: true }.into(),
        TournamentMessage::NextRound { tournament: "t".into(), token: "k".into() }.into(),
        TournamentMessage::TournamentResults { tournament: "t".into(), round: Some(2) }.into(),
        TournamentMessage::Tournaments { offset: 0 }.into(),
        SeriesMessage::Series { room: "r".into(), key: "k".into(), from: Some(51), count: Some(20) }.into(),
        SeriesMessage::SeriesReplay { room: "r".into(), key: "k".into(), deal: 2 }.into(),
        RoomMessage::ShareLink.into(),
        RoomMessage::DeleteSeries { agree: true }.into(),
        RoomMessage::Rematch.into(),
    ]
}

#[test]
fn parse_tells_malformed_from_unknown() {
    assert_eq!(ClientMessage::parse("{nope").unwrap_err().0, ErrorCode::Malformed);
    assert_eq!(ClientMessage::parse("[1,2]").unwrap_err().0, ErrorCode::Malformed);
    assert_eq!(ClientMessage::parse(r#"{"type":5}"#).unwrap_err().0, ErrorCode::Malformed);
    assert_eq!(ClientMessage::parse(r#"{"type":"dance"}"#).unwrap_err().0, ErrorCode::UnknownType);
    assert_eq!(ClientMessage::parse(r#"{"type":"take_seat","seat":"x"}"#).unwrap_err().0, ErrorCode::Malformed);
    assert_eq!(ClientMessage::parse(r#"{"type":"ping"}"#), Ok(ConnectionMessage::Ping.into()));
    assert_eq!(ClientMessage::parse(r#"{"type":"leave_seat"}"#), Ok(RoomMessage::LeaveSeat.into()));
    // Fields added later are optional: the older forms still read.
    assert_eq!(ClientMessage::parse(r#"{"type":"lobby"}"#), Ok(ConnectionMessage::Lobby { offset: 0 }.into()));
    let join = ClientMessage::parse(r#"{"type":"join_room","room":"r","name":"A"}"#);
    assert_eq!(
        join,
        Ok(ConnectionMessage::JoinRoom {
            room: "r".into(),
            name: "A".into(),
            role: Role::Player,
            token: None,
            key: None
        }
        .into())
    );
}

#[test]
fn every_type_is_listed_and_round_trips() {
    let examples = examples();
    assert_eq!(examples.len(), ClientMessage::TYPES.len());
    for (message, kind) in examples.iter().zip(ClientMessage::TYPES) {
        let json = serde_json::to_value(message).unwrap();
        assert_eq!(json["type"], kind);
        assert_eq!(&ClientMessage::parse(&json.to_string()).unwrap(), message);
    }
}

#[test]
fn act_reads_the_documented_shape() {
    let m = ClientMessage::parse(r#"{"type":"act","id":17,"seq":40,"action":{"action":"play","card":"H10"}}"#);
    let card: Card = "H10".parse().unwrap();
    assert_eq!(m, Ok(RoomMessage::Act { id: 17, seq: 40, action: act(Action::Play { card }) }.into()));
    let create = ClientMessage::parse(r#"{"type":"create_room","name":"A"}"#).unwrap();
    assert_eq!(
        create,
        ClientMessage::Connection(ConnectionMessage::CreateRoom {
            name: "A".into(),
            rules: GameRules::default(),
            options: RoomOptions::default()
        })
    );
    for &game in fipsen_rules::GameId::ALL {
        let text = format!(r#"{{"type":"create_room","name":"A","rules":{{"game":"{}"}}}}"#, game.code());
        let create = ClientMessage::parse(&text).unwrap();
        let ClientMessage::Connection(ConnectionMessage::CreateRoom { rules, .. }) = create else {
            panic!("{create:?}")
        };
        assert_eq!(rules.game(), game);
    }
    let unknown = ClientMessage::parse(r#"{"type":"create_room","name":"A","rules":{"game":"skat"}}"#).unwrap_err();
    assert_eq!(unknown.0, ErrorCode::RulesInvalid);
    assert!(unknown.1.contains("unknown game `skat`"), "{}", unknown.1);
}

#[test]
fn error_frames_carry_code_and_sentence() {
    let json = ServerMessage::error(ErrorCode::RoomNotFound, Some(4)).to_json();
    assert_eq!(
        json,
        r#"{"type":"error","id":4,"code":"room/not_found","message":"there is no room with that invite code"}"#
    );
}

#[test]
fn the_families_share_out_every_type_once() {
    let mut families: Vec<&str> = [
        &ConnectionMessage::TYPES[..],
        &RoomMessage::TYPES[..],
        &TournamentMessage::TYPES[..],
        &SeriesMessage::TYPES[..],
    ]
    .concat();
    assert_eq!(families.len(), ClientMessage::TYPES.len());
    families.sort_unstable();
    families.dedup();
    let mut all = ClientMessage::TYPES.to_vec();
    all.sort_unstable();
    assert_eq!(families, all);
    // Each family reads its own types, and writes them back flat with the same `type`.
    for (kind, family) in [("ping", Family::Connection), ("start", Family::Room), ("series", Family::Series)]
        .into_iter()
        .chain([("unwatch_tournament", Family::Tournament)])
    {
        assert_eq!(Family::of(kind), Some(family));
    }
    assert_eq!(Family::of("dance"), None);
    let start = ClientMessage::parse(r#"{"type":"start"}"#).unwrap();
    assert_eq!(start, ClientMessage::Room(RoomMessage::Start));
    assert_eq!(serde_json::to_string(&start).unwrap(), r#"{"type":"start"}"#);
}

#[test]
fn a_wrong_field_is_explained_by_its_family() {
    let (code, sentence) = ClientMessage::parse(r#"{"type":"take_seat","seat":"x"}"#).unwrap_err();
    assert_eq!(code, ErrorCode::Malformed);
    assert!(sentence.starts_with("the `take_seat` message is not of the expected shape: invalid type"), "{sentence}");
    let (_, sentence) = ClientMessage::parse(r#"{"type":"register","tournament":"t"}"#).unwrap_err();
    assert!(sentence.contains("missing field `name`"), "{sentence}");
    let (_, sentence) = ClientMessage::parse(r#"{"type":"series_replay","room":"r","key":"k"}"#).unwrap_err();
    assert!(sentence.contains("missing field `deal`"), "{sentence}");
}

#[test]
fn deserialize_reads_as_parse_does() {
    let act = r#"{"type":"act","id":17,"seq":40,"action":{"action":"play","card":"H10"}}"#;
    let read: ClientMessage = serde_json::from_str(act).unwrap();
    assert_eq!(Ok(read.clone()), ClientMessage::parse(act));
    let ClientMessage::Room(room) = read else { panic!("{read:?}") };
    assert_eq!(room.id(), Some(17));
    assert_eq!(RoomMessage::Nudge.id(), None);
    let unknown = serde_json::from_str::<ClientMessage>(r#"{"type":"dance"}"#).unwrap_err();
    assert!(unknown.to_string().contains("unknown variant `dance`"), "{unknown}");
    let untyped = serde_json::from_str::<ClientMessage>(r#"{"seat":1}"#).unwrap_err();
    assert!(untyped.to_string().contains("missing field `type`"), "{untyped}");
    let wrong = serde_json::from_str::<ClientMessage>(r#"{"type":"chat","text":5}"#).unwrap_err();
    assert!(wrong.to_string().contains("invalid type"), "{wrong}");
}

#[test]
fn every_message_writes_the_flat_form_of_the_protocol() {
    // Families do not show on the wire: each message is one flat object, `type` first, then its
    // fields in the documented order (the two messages carrying whole rules and table options
    // are left to the round trip above).
    let wire = [
        Some(r#"{"type":"hello","protocol":1,"client":null}"#),
        None,
        Some(r#"{"type":"join_room","room":"r","name":"B","role":"spectator"}"#),
        Some(r#"{"type":"resume","room":"r","token":"t","last_seq":3}"#),
        Some(r#"{"type":"take_seat","seat":2}"#),
        Some(r#"{"type":"leave_seat"}"#),
        Some(r#"{"type":"start"}"#),
        Some(r#"{"type":"set_public","public":true}"#),
        Some(r#"{"type":"act","id":1,"seq":2,"action":{"action":"play","card":"D7"}}"#),
        Some(r#"{"type":"next_deal"}"#),
        Some(r#"{"type":"chat","text":"hi"}"#),
        Some(r#"{"type":"leave_room"}"#),
        Some(r#"{"type":"lobby","offset":50}"#),
        Some(r#"{"type":"peek","room":"r"}"#),
        Some(r#"{"type":"my_rooms","tokens":["t"]}"#),
        Some(r#"{"type":"ping"}"#),
        Some(r#"{"type":"add_bot","seat":3,"level":"strong"}"#),
        Some(r#"{"type":"remove_bot","seat":3}"#),
        Some(r#"{"type":"review"}"#),
        Some(r#"{"type":"nudge"}"#),
        Some(r#"{"type":"reading","reading":true}"#),
        Some(r#"{"type":"replay","deal":3}"#),
        Some(r#"{"type":"query","query":{"card":"H10","piles":[]}}"#),
        None,
        Some(r#"{"type":"peek_tournament","tournament":"t"}"#),
        Some(r#"{"type":"watch_tournament","tournament":"t","token":"k"}"#),
        Some(r#"{"type":"unwatch_tournament"}"#),
        Some(r#"{"type":"register","tournament":"t","name":"A"}"#),
        Some(r#"{"type":"remove_entrant","tournament":"t","token":"k","entrant":2}"#),
        Some(r#"{"type":"close_registration","tournament":"t","token":"k"}"#),
        Some(r#"{"type":"start_tournament","tournament":"t","token":"k","fill_with_bots":true}"#),
        Some(r#"{"type":"next_round","tournament":"t","token":"k"}"#),
        Some(r#"{"type":"tournament_results","tournament":"t","round":2}"#),
        Some(r#"{"type":"tournaments","offset":0}"#),
        Some(r#"{"type":"series","room":"r","key":"k","from":51,"count":20}"#),
        Some(r#"{"type":"series_replay","room":"r","key":"k","deal":2}"#),
        Some(r#"{"type":"share_link"}"#),
        Some(r#"{"type":"delete_series","agree":true}"#),
        Some(r#"{"type":"rematch"}"#),
    ];
    for (message, text) in examples().iter().zip(wire) {
        if let Some(text) = text {
            assert_eq!(serde_json::to_string(message).unwrap(), text);
        }
    }
    assert_eq!(examples().len(), wire.len());
}
