//! The protocol with each game's own JSON, tried on named games (the protocol's sources name
//! none): a game's question and answer (the engine's query hook) cross the wire as the game's
//! own JSON, a `query` message carrying the question as the game reads it and the `answer`
//! frame the game's answer as it writes it; an action is read as the table's game's, with the
//! refusal that fits when it is not one.

use fipsen_protocol::{ClientMessage, ErrorCode, RoomMessage, ServerMessage, read_action};
use fipsen_rules::{AnyGame, GameAnswer, GameId, GameQuery, GameRules, Seed};
use serde_json::{Value, json};

#[test]
fn wippens_question_and_answer_cross_the_wire_as_its_own_json() {
    let (game, _) = AnyGame::start(&GameRules::default_for(GameId::Wippen), Seed([9; 32])).unwrap();
    let seat = game.turn().expect("someone to move");
    let view = serde_json::to_value(game.view(Some(seat))).unwrap();
    let mut answered = 0;
    for entry in view["deal"]["prompt"]["moves"].as_array().expect("moves") {
        // Each card's discard and the piles of each of its listed captures.
        let table = view["deal"]["table"].as_array().expect("table");
        let mut selections = vec![Vec::new()];
        for set in entry["capture"].as_array().into_iter().flatten() {
            let piles: Vec<Value> = set
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    let pile = &table[i.as_u64().unwrap() as usize];
                    match pile.get("building") {
                        Some(b) => json!({"building": b}),
                        None => json!({"card": pile["card"]}),
                    }
                })
                .collect();
            selections.push(piles);
        }
        for piles in selections {
            let question = json!({"card": entry["card"], "piles": piles});
            let query = GameQuery::from_json(GameId::Wippen, question.clone()).unwrap();
            let answer = game.query(seat, &query).unwrap();
            let GameAnswer::Wippen(options) = &answer else { panic!("Wippen answers") };
            let AnyGame::Wippen(series) = &game else { unreachable!("a Wippen table") };
            let moves = series.options(seat, options.card, &options.piles).unwrap();
            // The question reads from the room message as it was sent.
            let message = json!({"type": "query", "query": question});
            let ClientMessage::Room(RoomMessage::Query { query: sent }) =
                ClientMessage::parse(&message.to_string()).unwrap()
            else {
                panic!("a query")
            };
            assert_eq!(GameQuery::from_json(GameId::Wippen, sent).unwrap(), query);
            // The answer is the game's own, under `answer`.
            let frame = serde_json::to_value(ServerMessage::from(answer.clone())).unwrap();
            assert_eq!(frame["type"], "answer");
            assert_eq!(frame["answer"], serde_json::to_value(&answer).unwrap(), "{question}");
            assert_eq!(frame["answer"]["moves"], serde_json::to_value(&moves).unwrap());
            assert_eq!(question["piles"], frame["answer"]["piles"], "the question comes back as asked");
            answered += 1;
        }
    }
    assert!(answered > 4, "{answered}");
}

fn refusal(game: GameId, action: Value) -> (&'static str, String) {
    let (code, sentence) = read_action(game, action).expect_err("a refusal");
    (code.code(), sentence)
}

#[test]
fn an_action_of_the_game_is_read() {
    let action = read_action(GameId::Prisdorf, json!({"action": "discard", "cards": ["H7", "H8"]})).unwrap();
    assert_eq!(action.game(), GameId::Prisdorf);
    assert_eq!(action.kind(), "discard");
}

#[test]
fn a_card_named_twice_is_refused_as_such_in_every_game_that_discards() {
    for game in [GameId::Prisdorf, GameId::Grossenaspe, GameId::Anseggerfips, GameId::Duttfips] {
        let (code, sentence) = refusal(game, json!({"action": "discard", "cards": ["H7", "H7"]}));
        assert_eq!(code, "card/named_twice", "{game:?}: {sentence}");
        assert!(sentence.contains("H7"), "{sentence}");
    }
}

#[test]
fn an_action_of_another_game_is_refused_as_such() {
    // `fold` is Großenaspe's; Anseggerfips and Duttfips play by the Mecklenburg rules.
    for game in [GameId::Anseggerfips, GameId::Duttfips, GameId::Prisdorf] {
        let (code, sentence) = refusal(game, json!({"action": "fold"}));
        assert_eq!(code, "action/wrong_game", "{game:?}: {sentence}");
        assert!(sentence.contains(game.name()), "{sentence}");
    }
}

#[test]
fn what_no_game_has_stays_malformed() {
    for action in [json!({"action": "dance"}), json!({"action": "play", "card": "1X"}), json!([1, 2]), json!(null)] {
        let (code, sentence) = refusal(GameId::Duttfips, action.clone());
        assert_eq!(code, "proto/malformed", "{action}: {sentence}");
        assert!(sentence.contains("Duttfips"), "{sentence}");
    }
    // A list with a repeat that is malformed for other reasons stays malformed too.
    let (code, _) = refusal(GameId::Prisdorf, json!({"action": "discard", "cards": ["H7", "H7", "ZZ"]}));
    assert_eq!(code, "proto/malformed");
}

#[test]
fn rules_a_game_does_not_have_are_a_rules_error() {
    for rules in [
        r#"{"game": "duttfips", "players": 4}"#,
        r#"{"game": "anseggerfips", "players": 3}"#,
        r#"{"game": "chess"}"#,
        r#"{"game": "prisdorf", "players": "four"}"#,
        "7",
    ] {
        let text = format!(r#"{{"type": "create_room", "name": "A", "rules": {rules}}}"#);
        let (code, sentence) = ClientMessage::parse(&text).unwrap_err();
        assert_eq!(code, ErrorCode::RulesInvalid, "{rules}: {sentence}");
    }
    // Rules that a game has are read; a mistake elsewhere in the message stays malformed.
    let ok = ClientMessage::parse(r#"{"type": "create_room", "name": "A", "rules": {"game": "duttfips"}}"#);
    assert!(ok.is_ok(), "{ok:?}");
    let bad = ClientMessage::parse(r#"{"type": "create_room", "name": 5, "rules": {"game": "duttfips"}}"#);
    assert_eq!(bad.unwrap_err().0, ErrorCode::Malformed);
}

/// The tournament frames of a Prisdorf tournament, under the reply limit.
mod tournament_frames {
    use fipsen_rules::{GameRules, Players, RuleSet, Seed};
    use fipsen_tournament::{
        DealResult, EntrantId, MAX_ENTRANTS, MAX_ROUNDS, Results, Settings, TIE_BREAK, Tournament, TournamentId,
    };

    use fipsen_protocol::*;

    /// The server's default reply limit (`--max-reply-bytes`).
    const REPLY_LIMIT: usize = 256 * 1024;

    /// `chars` characters of four bytes each in UTF-8, different for every `i`.
    fn long_name(i: u32, chars: usize) -> String {
        let letter = |n: u32| char::from_u32(0x1D400 + n % 52).unwrap_or('x');
        let mut name: String = std::iter::repeat_n('𝕏', chars - 2).collect();
        name.push(letter(i / 52));
        name.push(letter(i));
        name
    }

    #[test]
    fn tables_without_spectators_allowed_follow_the_tournament() {
        let parse = |json: &str| match ClientMessage::parse(json) {
            Ok(ClientMessage::Tournament(TournamentMessage::CreateTournament { tables, .. })) => tables,
            other => panic!("{other:?}"),
        };
        let create = r#"{"type":"create_tournament","name":"O","settings":{"name":"T","game":"prisdorf","tables":[{"seats":4,"deals":1,"rules":{"game":"prisdorf","players":4,"deals":1}}],"max_short_tables":0,"rounds":1,"reseating":"random","duplicate":true,"listed":false,"organiser_plays":false}"#;
        let given = parse(&format!(r#"{create},"tables":{{"grace_seconds":5}}}}"#)).unwrap_or_default();
        assert!(!given.spectators_given);
        assert_eq!(given.options.grace_seconds, 5);
        assert!(!given.clone().for_tournament(true).spectators_allowed, "duplicate: none");
        assert!(given.for_tournament(false).spectators_allowed);
        let asked = parse(&format!(r#"{create},"tables":{{"spectators_allowed":true}}}}"#)).unwrap_or_default();
        assert!(asked.for_tournament(true).spectators_allowed, "asked for: given");
        let refused = parse(&format!(r#"{create},"tables":{{"spectators_allowed":false}}}}"#)).unwrap_or_default();
        assert!(!refused.for_tournament(false).spectators_allowed);
        assert_eq!(parse(&format!("{create}}}")), None);
        assert!(ClientMessage::parse(&format!(r#"{create},"tables":{{"nonsense":1}}}}"#)).is_err());
    }

    /// The largest tournament there can be: the most entrants, each name four bytes a
    /// character, the longest tournament and organiser names, every round played, duplicate
    /// scores and the largest points. Its frame, the results in their parts and a page of the
    /// public list each stay under the reply limit.
    #[test]
    fn the_largest_tournament_fits_every_frame_under_the_reply_limit() {
        let mut settings = Settings::prisdorf(&long_name(0, 64));
        settings.rounds = MAX_ROUNDS;
        settings.duplicate = true;
        settings.organiser_plays = false;
        settings.max_entrants = Some(MAX_ENTRANTS);
        for f in &mut settings.tables {
            let players = if f.seats == 4 { Players::Four } else { Players::Three };
            f.deals = 1;
            f.rules = GameRules::Prisdorf(RuleSet { deals: Some(1), ..RuleSet::tournament(players) });
        }
        let id = TournamentId("Tq7cW0pLx2Zr9Ks4NvB1".into());
        let (mut t, _) = Tournament::create(id, settings, &long_name(1, 32)).unwrap();
        // 126 = 30 tables of four and two of three: both sizes, the most tables.
        for i in 0..MAX_ENTRANTS - 2 {
            t.register(&long_name(i + 2, 32)).unwrap();
        }
        t.start(Seed::from_u64(1), false).unwrap();
        for round in 1..=MAX_ROUNDS {
            if round > 1 {
                t.next_round(Seed::from_u64(u64::from(round))).unwrap();
            }
            let tables: Vec<_> = t.current_round().unwrap().tables.clone();
            let results: Vec<DealResult> = tables
                .iter()
                .map(|table| DealResult {
                    table: table.id,
                    deal: 1,
                    points: (0..table.seats.len())
                        .map(|s| if (s + table.id.table as usize).is_multiple_of(2) { i32::MIN + 1 } else { i32::MAX })
                        .collect(),
                    redeal: u32::from(table.id.table % 3 == 0),
                })
                .collect();
            t.record(&results).unwrap();
        }
        let rooms: Vec<Vec<String>> =
            t.rounds().iter().map(|r| vec!["k3JX9a2LqP0vWm4Zb7Ya".to_string(); r.tables.len()]).collect();
        let state = TournamentState {
            code: t.id().0.clone(),
            view: t.view(),
            rooms,
            seating: None,
            tables: RoomOptions::default(),
            you: TournamentYou { organiser: true, entrant: Some(EntrantId(MAX_ENTRANTS)) },
        };
        let mut frames = vec![("tournament", ServerMessage::Tournament { tournament: state }.to_json())];
        frames.push((
            "results",
            ServerMessage::TournamentResults {
                tournament: t.id().0.clone(),
                round: None,
                results: t.results_summary(),
                csv: t.standings_csv(),
                tables_csv: String::new(),
            }
            .to_json(),
        ));
        for round in 1..=MAX_ROUNDS {
            frames.push((
                "a round's results",
                ServerMessage::TournamentResults {
                    tournament: t.id().0.clone(),
                    round: Some(round),
                    results: Results {
                        tie_break: TIE_BREAK.into(),
                        standings: Vec::new(),
                        rounds: t.round_results(round).into_iter().collect(),
                    },
                    csv: String::new(),
                    tables_csv: t.round_tables_csv(round),
                }
                .to_json(),
            ));
        }
        let summary = TournamentSummary {
            code: t.id().0.clone(),
            name: t.settings().name.clone(),
            organiser: t.organiser().into(),
            game: t.settings().game,
            phase: t.phase(),
            entrants: MAX_ENTRANTS,
            rounds: MAX_ROUNDS,
        };
        let list = vec![summary; TOURNAMENT_PAGE as usize];
        frames
            .push(("tournaments", ServerMessage::Tournaments { total: 1000, offset: 0, tournaments: list }.to_json()));
        for (what, frame) in &frames {
            println!("{what}: {} bytes", frame.len());
            assert!(frame.len() < REPLY_LIMIT, "{what}: {} bytes", frame.len());
        }
        // The whole results at once would not fit: that is why they come in parts.
        let whole = t.results();
        let all = serde_json::to_string(&whole).unwrap().len() + t.standings_csv().len() + t.tables_csv().len();
        assert!(all > REPLY_LIMIT, "{all}");
    }
}
